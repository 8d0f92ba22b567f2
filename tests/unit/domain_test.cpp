#include <boost/test/unit_test.hpp>

#include "domain/states.hpp"
#include "domain/subscription_status.hpp"
#include "jobs/job_status.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(domain)

BOOST_AUTO_TEST_CASE(subscription_status_text_both_ways) {
    for (const auto st : {SubscriptionStatus::trial, SubscriptionStatus::active, SubscriptionStatus::limited,
                          SubscriptionStatus::expired, SubscriptionStatus::disabled, SubscriptionStatus::pending})
        BOOST_TEST((subscription_status_from_text(to_text(st)) == st));
    BOOST_TEST(to_text(SubscriptionStatus::disabled) == "disabled");
    BOOST_CHECK_THROW(subscription_status_from_text("Active"), std::invalid_argument);
    BOOST_CHECK_THROW(subscription_status_from_text(""), std::invalid_argument);
}

// Every state's table converts each value to its text and back, and refuses a text of none.
template <typename E, std::size_t N>
void round_trips(const EnumText<E, N>& table) {
    for (std::size_t i = 0; i < N; ++i) {
        const auto e = static_cast<E>(i);
        BOOST_TEST((table.parse(table.text(e)) == e));
        BOOST_TEST((table.from(table.text(e)) == e));
    }
    BOOST_TEST(!table.parse(""));
    BOOST_CHECK_THROW(table.from("no such state"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(every_state_enum_converts_both_ways) {
    round_trips(StateTexts<TransactionStatus>::table);
    round_trips(StateTexts<Provider>::table);
    round_trips(StateTexts<PromoReward>::table);
    round_trips(StateTexts<TicketStatus>::table);
    round_trips(StateTexts<JobStatus>::table);
    round_trips(StateTexts<TransactionType>::table);
    round_trips(StateTexts<BroadcastStatus>::table);
    BOOST_TEST(StateTexts<TransactionStatus>::table.list() == "pending, completed, canceled, refunded, failed");
    BOOST_TEST(to_text(TransactionStatus::refunded) == "refunded");
    BOOST_TEST((parse_state<Provider>("stars") == Provider::stars));
    BOOST_TEST(!parse_state<Provider>("balance"));  // a balance purchase asks no provider
    BOOST_TEST(was_paid(TransactionStatus::completed));
    BOOST_TEST(was_paid(TransactionStatus::refunded));
    BOOST_TEST(!was_paid(TransactionStatus::pending));
    BOOST_TEST(!was_paid(TransactionStatus::canceled));
    BOOST_TEST(grants_days(PromoReward::subscription));
    BOOST_TEST(!grants_days(PromoReward::balance));
}

BOOST_AUTO_TEST_CASE(effective_status_follows_time_and_traffic) {
    Subscription s;
    s.status = SubscriptionStatus::active;
    s.expire_at = 1000;
    BOOST_TEST(to_text(effective_status(s, 999)) == "active");
    BOOST_TEST(to_text(effective_status(s, 1000)) == "expired");
    s.traffic_limit_bytes = 10;
    s.traffic_used_bytes = 10;
    BOOST_TEST(to_text(effective_status(s, 999)) == "limited");
    s.traffic_used_bytes = 9;
    s.status = SubscriptionStatus::limited;  // traffic was reset since the last sync
    BOOST_TEST(to_text(effective_status(s, 999)) == "active");
    s.status = SubscriptionStatus::disabled;
    BOOST_TEST(to_text(effective_status(s, 999)) == "disabled");
    s.status = SubscriptionStatus::trial;
    s.is_trial = true;
    BOOST_TEST(is_usable(s, 999));
    BOOST_TEST(!is_usable(s, 1001));
}

BOOST_AUTO_TEST_CASE(iso8601) {
    BOOST_TEST(iso8601_utc(0) == "1970-01-01T00:00:00Z");
    BOOST_TEST(iso8601_utc(1795293864) == "2026-11-21T20:44:24Z");
}

BOOST_AUTO_TEST_CASE(decoding) {
    BOOST_TEST(form_decode("a+b%20c").value() == "a b c");
    BOOST_TEST(!form_decode("%4").has_value());
    BOOST_TEST(!form_decode("%").has_value());
    BOOST_TEST(percent_decode("a+b").value() == "a+b");
    int64_t n = 0;
    BOOST_TEST(!parse_int64("99999999999999999999", n));
    BOOST_TEST(!parse_int64("12a", n));
}

BOOST_AUTO_TEST_SUITE_END()
