// The paid-expiry replay that `cabinetctl repair-days` trusts to find days lost by the
// renewal race: it must follow the grant rule exactly, and never report a healthy account.
#include <boost/test/unit_test.hpp>

#include "domain/expiry_replay.hpp"

using namespace cabinet;

namespace {
constexpr int64_t kDay = 86400;
constexpr int64_t t0 = 1'800'000'000;
}  // namespace

BOOST_AUTO_TEST_SUITE(expiry_replay)

BOOST_AUTO_TEST_CASE(renewals_while_running_add_up) {
    // Four renewals of 30 days a second apart (a double tap, four times): 120 days.
    BOOST_TEST(replay_paid_expiry({{t0, 30}, {t0 + 1, 30}, {t0 + 2, 30}, {t0 + 3, 30}}) == t0 + 120 * kDay);
}

BOOST_AUTO_TEST_CASE(a_purchase_after_expiry_starts_when_it_completed) {
    const int64_t later = t0 + 40 * kDay;  // the first 30 days ran out 10 days before
    BOOST_TEST(replay_paid_expiry({{t0, 30}, {later, 90}}) == later + 90 * kDay);
}

BOOST_AUTO_TEST_CASE(no_purchases_expect_nothing) { BOOST_TEST(replay_paid_expiry({}) == 0); }

BOOST_AUTO_TEST_CASE(missing_days_are_whole_days_and_ignore_seconds) {
    BOOST_TEST(missing_days(t0 + 120 * kDay, t0 + 30 * kDay + 3) == 90);  // the race: 3 of 4 renewals lost
    BOOST_TEST(missing_days(t0 + 30 * kDay, t0 + 30 * kDay - 5) == 0);    // seconds of request time
    BOOST_TEST(missing_days(t0 + 30 * kDay, t0 + 30 * kDay + 7 * kDay) == 0);  // free days on top
    BOOST_TEST(missing_days(t0 + kDay, t0 + kDay / 2 + 1) == 0);          // under half a day
    BOOST_TEST(missing_days(t0 + kDay, t0) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
