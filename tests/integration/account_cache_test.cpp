// The accounts each pool process keeps in memory (cache/account_cache.hpp, sql 0022):
// what a client was told it wrote is what its next read shows, whichever process answers,
// even with no notification at all (each process is asked in turn, past nginx);
// writes made elsewhere (the worker, cabinetctl, psql, another user's registration) are
// shown once the change listeners have handled their notifications; a lost listener
// serves nothing stale.
#include "catalog_support.hpp"
#include "money_support.hpp"
#include "pool_direct.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

// Switches the notifying triggers of users and subscriptions off until `cleanup` runs: a
// read is then fresh only by the writer's own bump of the host's generations file.
void without_notifications(Cleanup& cleanup) {
    for (const std::string table : {"users", "subscriptions"}) {
        exec("ALTER TABLE " + table + " DISABLE TRIGGER " + table + "_account_changed");
        cleanup.add("ALTER TABLE " + table + " ENABLE TRIGGER " + table + "_account_changed");
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(account_cache)

BOOST_AUTO_TEST_CASE(a_purchase_is_read_back_at_once_by_every_process) {
    Shopper s = new_shopper();
    set_balance(s.tg, 100000);
    warm_every_process(s.auth, "/api/cabinet/me");
    Cleanup cleanup;
    without_notifications(cleanup);

    // No wait of any kind between the answer and the reads.
    for (int n = 1; n <= 2; ++n) {
        BOOST_REQUIRE(renew(s) == 200);
        const std::string expire_at = cabinet::iso8601_utc(books(s).expire_at);
        on_every_process(s.auth, "/api/cabinet/me", [&](const rapidjson::Document& me) {
            BOOST_TEST(me["user"]["balance_minor"].GetInt64() == 100000 - n * kStandardPrice);
            BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "active");
            BOOST_TEST(std::string(me["subscription"]["expire_at"].GetString()) == expire_at);
        });
    }
}

BOOST_AUTO_TEST_CASE(a_promo_discount_is_priced_at_once_and_a_trial_shown_at_once) {
    Shopper s = new_shopper();
    warm_every_process(s.auth, "/api/cabinet/plans");
    warm_every_process(s.auth, "/api/cabinet/me");
    const std::string code = "ITCACHE" + str(s.tg);
    Cleanup cleanup;
    cleanup.add("DELETE FROM promo_codes WHERE code = '" + code + "'");
    exec("INSERT INTO promo_codes (code, reward_type, value, max_uses) VALUES ('" + code + "', 'discount', 20, 1)");
    without_notifications(cleanup);
    BOOST_REQUIRE(activate(s, code));
    on_every_process(s.auth, "/api/cabinet/plans", [](const rapidjson::Document& plans) {
        const auto& d = find_by(plans["items"], "public_code", "standard")["durations"][0];
        BOOST_TEST(d["price_minor"].GetInt64() == discounted(d["base_price_minor"].GetInt64(), 20));
    });
    const auto trial = http("POST", "/api/cabinet/trial", {s.auth});
    BOOST_REQUIRE_MESSAGE(trial.status == 200, trial.body);
    on_every_process(s.auth, "/api/cabinet/me", [](const rapidjson::Document& me) {
        BOOST_TEST(!me["user"]["is_trial_available"].GetBool());
        BOOST_TEST(me["subscription"]["is_trial"].GetBool());
    });
}

BOOST_AUTO_TEST_CASE(changes_made_elsewhere_arrive_through_notifications) {
    Shopper s = new_shopper();
    set_balance(s.tg, 50000);
    BOOST_REQUIRE(renew(s) == 200);
    warm_every_process(s.auth, "/api/cabinet/me");
    warm_every_process(s.auth, "/api/cabinet/referral");
    warm_every_process(s.auth, "/api/cabinet/traffic");

    // The users row, the subscription row, a referee's registration (a request of another
    // user) and a traffic snapshot, each changed outside the pool.
    exec("UPDATE users SET personal_discount_pct = 9 WHERE id = " + str(s.id));
    exec("UPDATE subscriptions SET device_limit = 7 WHERE user_id = " + str(s.id));
    new_shopper("ref_" + s.referral_code);
    exec("INSERT INTO traffic_snapshots (user_id, day, used_bytes) VALUES (" + str(s.id) +
         ", current_date - 1, 4242) ON CONFLICT (user_id, day) DO UPDATE SET used_bytes = 4242");
    settle_caches();  // the registration above was not the tests' own SQL

    on_every_process(s.auth, "/api/cabinet/me", [](const rapidjson::Document& me) {
        BOOST_TEST(me["user"]["personal_discount_pct"].GetInt64() == 9);
        BOOST_TEST(me["subscription"]["device_limit"].GetInt64() == 7);
    });
    on_every_process(s.auth, "/api/cabinet/referral", [](const rapidjson::Document& referral) {
        BOOST_TEST(referral["invited_count"].GetInt64() == 1);
    });
    on_every_process(s.auth, "/api/cabinet/traffic", [](const rapidjson::Document& traffic) {
        bool seen = false;
        for (const auto& day : traffic["series"].GetArray()) seen = seen || day["used_bytes"].GetInt64() == 4242;
        BOOST_TEST(seen);
    });
}

BOOST_AUTO_TEST_CASE(a_lost_listener_serves_nothing_stale) {
    auto listeners = [] {
        return count("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'cabinet-change-listener'");
    };
    BOOST_TEST_REQUIRE(wait_until([&] { return listeners() >= 1; }, 5000));
    const int64_t listening = listeners();
    Shopper s = new_shopper();
    warm_every_process(s.auth, "/api/cabinet/me");

    // Cut every listener, then change the user with its notifying trigger off: only the
    // flush on losing and regaining the connection can show it.
    exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cabinet-change-listener'");
    exec("ALTER TABLE users DISABLE TRIGGER users_account_changed; "
         "UPDATE users SET personal_discount_pct = 11 WHERE id = " + str(s.id) + "; "
         "ALTER TABLE users ENABLE TRIGGER users_account_changed");
    BOOST_TEST(wait_until([&] {
        bool all_fresh = true;
        on_every_process(s.auth, "/api/cabinet/me", [&](const rapidjson::Document& me) {
            all_fresh = all_fresh && me["user"]["personal_discount_pct"].GetInt64() == 11;
        });
        return all_fresh;
    }, 5000));
    BOOST_TEST(wait_until([&] { return listeners() == listening; }, 5000));
}

BOOST_AUTO_TEST_SUITE_END()
