// The account cache's packed entries (cache/account_codec.hpp): what is unpacked is what was
// packed, field for field, whatever is set or missing.
#include <boost/test/unit_test.hpp>

#include "cache/account_codec.hpp"

using namespace cabinet;

namespace {

Account full_account() {
    Account a;
    User& u = a.user;
    u.id = 900000051;
    u.telegram_id = -1001234567890;  // negative: a group's id
    u.username = "bench51";
    u.first_name = "Bénch ✓";
    u.last_name = std::string(300, 'x');  // longer than one varint byte of length
    u.language = "ru";
    u.email = "bench51@example.com";
    u.currency = "RUB";
    u.balance_minor = -4500;
    u.referral_code = "BENCH51";
    u.personal_discount_pct = 10;
    u.is_blocked = true;
    u.trial_used = true;
    u.referred_by = 7;
    u.group_discount_pct = 5;
    u.promo_discount_pct = 15;
    u.promo_discount_until = 1795540258;
    Subscription& s = a.subscription.emplace();
    s.status = SubscriptionStatus::active;
    s.is_trial = true;
    s.plan_name = "Standard";
    s.start_at = 1770000000;
    s.expire_at = 1800000000;
    s.device_limit = 3;
    s.traffic_limit_bytes = 107374182400;
    s.traffic_used_bytes = 48318382080;
    s.subscription_url = "http://127.0.0.1:13240/sub/bench5";
    s.crypto_link = "happ://crypt/abc";
    s.autopay_enabled = true;
    s.plan_id = 2;
    s.panel_uuid = "00000000-0000-4000-8000-000035a4e905";
    s.short_uuid = "bench5";
    s.link_reset_at = 1790000000;
    s.revision = 3;
    s.traffic_synced_at = INT64_MAX;
    return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(account_codec)

BOOST_AUTO_TEST_CASE(an_account_comes_back_as_it_was_packed_but_its_catalogue_version) {
    Account a = full_account();
    a.catalog_version = 12;
    const std::string packed = pack_account(a);
    a.catalog_version.reset();
    BOOST_TEST((unpack_account(packed) == a));
    BOOST_TEST(packed.size() < 600u);  // 300 of them the last name

    Account bare;  // no telegram id, no referrer, no subscription, empty strings
    bare.user.id = 1;
    BOOST_TEST((unpack_account(pack_account(bare)) == bare));
    Account no_url = full_account();
    no_url.subscription->subscription_url.reset();
    no_url.subscription->plan_id.reset();
    no_url.subscription->is_trial = false;
    BOOST_TEST((unpack_account(pack_account(no_url)) == no_url));
}

BOOST_AUTO_TEST_CASE(referral_statistics_and_traffic_series_come_back_as_they_were) {
    const ReferralStats r = unpack_referral_stats(pack_referral_stats({3, 4500}));
    BOOST_TEST(r.invited_count == 3);
    BOOST_TEST(r.earnings_minor == 4500);

    std::vector<TrafficDay> days;  // thirty days that follow each other, a few GB a day
    for (int32_t d = 0; d < 30; ++d) days.push_back({20750 + d, int64_t{1610612736} * d});
    const std::string packed = pack_traffic_series(days);
    BOOST_TEST((unpack_traffic_series(packed) == days));
    BOOST_TEST(packed.size() < 200u);  // 480 bytes as TrafficDay

    const std::vector<TrafficDay> gaps{{20780, 10}, {20790, 5}, {20781, INT64_MAX}, {-3, INT64_MIN}};
    BOOST_TEST((unpack_traffic_series(pack_traffic_series(gaps)) == gaps));
    BOOST_TEST(unpack_traffic_series(pack_traffic_series({})).empty());
}

BOOST_AUTO_TEST_CASE(ended_session_ids_come_back_as_they_were) {
    const std::vector<std::string> ids{"0b7c5e0e-5f0c-4d41-9a55-1d8f4c2b7e10", "6f1d2a9c-0000-4000-8000-000000000001"};
    BOOST_TEST((unpack_session_ids(pack_session_ids(ids)) == ids));
    // None ended is a copy too (one byte): the usual case, kept so that it costs no statement.
    const std::string none = pack_session_ids({});
    BOOST_TEST(none.size() == 1u);
    BOOST_TEST(unpack_session_ids(none).empty());
}

BOOST_AUTO_TEST_SUITE_END()
