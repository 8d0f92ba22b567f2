// The price rule at its edges: what GET /plans shows is what POST /purchase charges.
#include <boost/test/unit_test.hpp>

#include <limits>

#include "domain/pricing.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(pricing)

BOOST_AUTO_TEST_CASE(no_discount_is_list_price) {
    const Quote q = quote(29900, {}, 180);
    BOOST_TEST(q.final_minor == 29900);
    BOOST_TEST(q.discount_pct == 0);
    BOOST_TEST(q.stars == 167);  // 29900 / 180 = 166.1 -> 167
}

BOOST_AUTO_TEST_CASE(discounts_add_up_and_cap_at_100) {
    BOOST_TEST(quote(10000, {10, 20, 0, 15}, 100).final_minor == 5500);
    const Quote capped = quote(10000, {60, 30, 20, 40}, 100);
    BOOST_TEST(capped.discount_pct == 100);
    BOOST_TEST(capped.final_minor == 0);
    BOOST_TEST(capped.stars == 1);  // max(1, …): the original's rule, even for a free order
    BOOST_TEST(quote(10000, {-50, 200, 0, 0}, 100).discount_pct == 100);  // each part clamped first
}

BOOST_AUTO_TEST_CASE(rounding_favours_the_shop_at_one_minor_unit) {
    BOOST_TEST(quote(1, {50, 0, 0, 0}, 180).final_minor == 1);   // 0.5 off rounds to 0 off
    BOOST_TEST(quote(1, {99, 0, 0, 0}, 180).final_minor == 1);
    BOOST_TEST(quote(1, {100, 0, 0, 0}, 180).final_minor == 0);
    BOOST_TEST(quote(1, {0, 0, 0, 0}, 180).stars == 1);           // any price costs at least one star
    BOOST_TEST(quote(999, {33, 0, 0, 0}, 100).final_minor == 670);  // 329.67 off -> 329
}

BOOST_AUTO_TEST_CASE(large_prices_do_not_overflow) {
    const int64_t big = std::numeric_limits<int64_t>::max();
    const Quote q = quote(big, {50, 0, 0, 0}, 1);
    BOOST_TEST(q.final_minor == big - big / 2);
    BOOST_TEST(q.stars == q.final_minor);
    BOOST_CHECK_THROW(quote(-1, {}, 100), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
