// The catalogue's pure rules: which discounts a user has, and how a constructor order
// (period + pack) is priced so that the charge equals what the client adds up.
#include <boost/test/unit_test.hpp>

#include "domain/catalog.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(catalog)

BOOST_AUTO_TEST_CASE(discounts_for_takes_every_source) {
    User u;
    u.personal_discount_pct = 10;
    u.group_discount_pct = 15;
    u.promo_discount_pct = 5;
    const Discounts d = discounts_for(u, 20);
    BOOST_TEST(d.personal_pct == 10);
    BOOST_TEST(d.group_pct == 15);
    BOOST_TEST(d.promo_pct == 5);
    BOOST_TEST(d.sale_pct == 20);
    BOOST_TEST(d.total_pct() == 50);
    u.personal_discount_pct = 90;
    BOOST_TEST(discounts_for(u, 20).total_pct() == 100);
    BOOST_TEST(discounts_for(u, 20).promo_pct == 0);  // 90 + 15 + 20 reach 100 without it
    // The others reach 100 % without the promo offer: it lowers nothing, so it is not used
    // (a purchase then leaves it for the next one).
    u.personal_discount_pct = 60;
    u.group_discount_pct = 0;
    u.promo_discount_pct = 20;
    BOOST_TEST(discounts_for(u, 50).promo_pct == 0);
    BOOST_TEST(discounts_for(u, 50).total_pct() == 100);
    BOOST_TEST(discounts_for(u, 30).promo_pct == 20);  // 90 without it: it takes the last 10 %
    BOOST_TEST(discounts_for(u, 30).total_pct() == 100);
}

BOOST_AUTO_TEST_CASE(constructor_charge_is_the_sum_of_the_shown_prices) {
    // 15 %: 12345 -> 10494 (1851.75 off), 999 -> 850 (149.85 off); quote(13344) would be
    // 11343 (2001.6 off), one minor unit less than the client's sum.
    const Discounts d{15, 0, 0, 0};
    const Quote q = constructor_quote(12345, 999, d, 180);
    BOOST_TEST(q.final_minor == 10494 + 850);
    BOOST_TEST(q.list_minor == 12345 + 999);
    BOOST_TEST(q.discount_pct == 15);
    BOOST_TEST(q.stars == 64);  // ceil(11344 / 180) = ceil(63.02)
    BOOST_TEST(constructor_quote(100, 0, {}, 180).final_minor == 100);
    const Quote free = constructor_quote(14900, 29900, {100, 0, 0, 0}, 180);
    BOOST_TEST(free.final_minor == 0);
    BOOST_TEST(free.stars == 1);  // max(1, …), as for any quote
}

BOOST_AUTO_TEST_SUITE_END()
