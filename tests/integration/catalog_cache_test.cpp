// The catalogue each pool process keeps in memory (cache/catalog_cache.hpp, sql 0020):
// nothing stale after a change is acknowledged, whichever process answers (each is asked in
// turn, past nginx: tests/integration/pool_direct.hpp); public pages
// follow NOTIFY (the test stack's APP_CONFIG_TTL_MS is ten minutes, so only the listener can
// refresh them in time); a lost listener connection flushes the copy.
#include "catalog_support.hpp"
#include "money_support.hpp"
#include "pool_direct.hpp"

using namespace it;
using namespace it::money;

namespace {

constexpr int kRequests = 24;  // public pages: spread by nginx over every process and many threads

int64_t standard_30_list_price(const rapidjson::Document& plans) {
    return find_by(plans["items"], "public_code", "standard")["durations"][0]["base_price_minor"].GetInt64();
}

std::string config_title() { return http("GET", "/api/cabinet/config").json()["title"].GetString(); }
std::string app_title(const rapidjson::Value& me) { return me["app"]["title"].GetString(); }

// Cuts every pool process's change-listener connection, as meeting a restored database does;
// each reconnects after a second.
void cut_listeners() {
    exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'cabinet-change-listener'");
}
// Every pool process listening again (within 5 s).
bool every_process_listening() {
    return wait_until([] { return listeners() == pool_processes(); }, 5000);
}

// What the two same-number tests start from: a user whose `/plans` every process has answered,
// so that each holds a copy of the catalogue, and the app's title in it.
struct WarmCopies {
    int64_t tg = new_user();
    std::string auth = tma_header(tg);
    std::string title = app_title(get_as(tg, "/api/cabinet/me"));
    WarmCopies() { warm_every_process(auth, "/api/cabinet/plans"); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(catalog_cache)

BOOST_AUTO_TEST_CASE(a_price_change_is_seen_by_the_next_request_of_every_process) {
    const int64_t tg = new_user();
    const int64_t before = count("SELECT price_minor FROM plan_durations d JOIN plans p ON p.id = d.plan_id"
                                 " WHERE p.public_code = 'standard' AND d.days = 30");
    Cleanup cleanup;
    cleanup.add("UPDATE plan_durations SET price_minor = " + str(before) +
                " WHERE days = 30 AND plan_id = (SELECT id FROM plans WHERE public_code = 'standard')");
    const std::string auth = tma_header(tg);
    on_every_process(auth, "/api/cabinet/plans", [&](const auto& plans) { BOOST_TEST(standard_30_list_price(plans) == before); });

    // Acknowledged (committed) here; no wait of any kind before the reads.
    exec("UPDATE plan_durations SET price_minor = " + str(before + 1234) +
         " WHERE days = 30 AND plan_id = (SELECT id FROM plans WHERE public_code = 'standard')");
    on_every_process(auth, "/api/cabinet/plans", [&](const auto& plans) { BOOST_TEST(standard_30_list_price(plans) == before + 1234); });
    // Same copy, same freshness.
    on_every_process(auth, "/api/cabinet/constructor", [](const auto& pack) { BOOST_TEST(pack["periods"].IsArray()); });
}

BOOST_AUTO_TEST_CASE(a_sale_and_a_theme_change_reach_me_plans_and_constructor_at_once) {
    const int64_t tg = new_user();
    Cleanup cleanup;
    cleanup.add("DELETE FROM sales WHERE name = 'it-cache-sale-" + str(tg) + "'");
    const std::string title = "Cache test " + str(tg);
    const std::string old_title = app_title(http("GET", "/api/cabinet/me", {tma_header(tg)}).json());
    cleanup.add("UPDATE app_config SET title = '" + old_title + "'");
    const std::string auth = tma_header(tg);
    warm_every_process(auth, "/api/cabinet/me");

    exec("INSERT INTO sales (name, discount_pct, starts_at, ends_at) VALUES ('it-cache-sale-" + str(tg) +
         "', 40, now() - interval '1 minute', now() + interval '1 hour')");
    exec("UPDATE app_config SET title = '" + title + "'");
    on_every_process(auth, "/api/cabinet/me", [&](const auto& me) { BOOST_TEST(app_title(me) == title); });
    on_every_process(auth, "/api/cabinet/plans", [](const auto& plans) {
        const auto& d = find_by(plans["items"], "public_code", "standard")["durations"][0];
        BOOST_TEST(d["price_minor"].GetInt64() == discounted(d["base_price_minor"].GetInt64(), 40));
    });
}

BOOST_AUTO_TEST_CASE(public_pages_follow_notifications) {
    const std::string old_title = config_title();
    Cleanup cleanup;
    cleanup.add("UPDATE app_config SET title = '" + old_title + "'");
    for (int i = 0; i < kRequests; ++i) config_title();  // every process holds a copy
    const std::string title = "Notified " + std::to_string(fresh_telegram_id());
    exec("UPDATE app_config SET title = '" + title + "'");
    // The fallback TTL is ten minutes in the test stack: only NOTIFY can do this.
    BOOST_TEST(wait_until([&] {
        for (int i = 0; i < kRequests; ++i)
            if (config_title() != title) return false;
        return true;
    }, 3000));
}

BOOST_AUTO_TEST_CASE(a_lost_listener_connection_flushes_the_copy_and_comes_back) {
    BOOST_TEST_REQUIRE(wait_until([] { return listeners() >= 1; }, 5000));
    const int64_t listening = listeners();
    const std::string old_title = config_title();
    Cleanup cleanup;
    cleanup.add("UPDATE app_config SET title = '" + old_title + "'");
    for (int i = 0; i < kRequests; ++i) config_title();

    // Cut every listener, then change the title with the notifying trigger off in that
    // transaction (listeners reconnect after a second): only the flush on losing and
    // regaining the connection can show it.
    cut_listeners();
    const std::string title = "Unnotified " + std::to_string(fresh_telegram_id());
    exec("ALTER TABLE app_config DISABLE TRIGGER app_config_catalog_changed; UPDATE app_config SET title = '" + title +
         "'; ALTER TABLE app_config ENABLE TRIGGER app_config_catalog_changed");
    BOOST_TEST(wait_until([&] {
        for (int i = 0; i < kRequests; ++i)
            if (config_title() != title) return false;
        return true;
    }, 5000));
    BOOST_TEST(wait_until([&] { return listeners() == listening; }, 5000));
}

// A restored backup counts from an older catalogue version: the copies follow it down.
BOOST_AUTO_TEST_CASE(a_catalogue_version_that_goes_back_is_followed) {
    const int64_t tg = new_user();
    const std::string old_title = app_title(http("GET", "/api/cabinet/me", {tma_header(tg)}).json());
    Cleanup cleanup;
    cleanup.add("UPDATE app_config SET title = '" + old_title + "'");
    exec("UPDATE app_config SET title = title");  // fires the trigger: the version is 2 or more
    const std::string auth = tma_header(tg);
    warm_every_process(auth, "/api/cabinet/me");
    const std::string title = "Restored " + str(tg);
    exec("ALTER TABLE app_config DISABLE TRIGGER app_config_catalog_changed; UPDATE app_config SET title = '" + title +
         "'; ALTER TABLE app_config ENABLE TRIGGER app_config_catalog_changed;"
         " UPDATE catalog_version SET version = version - 1");
    // A pool meets a restored database by connecting to it anew: its listeners reconnect,
    // which forgets the accounts held (with the catalogue version they read).
    // Each process sees its listener go on its own time: wait for every one, not the first.
    cut_listeners();
    BOOST_TEST_REQUIRE(wait_until([&] {
        for (int p = 1; p <= pool_processes(); ++p) {
            const auto r = pool_request(p, "GET", "/api/cabinet/me", auth);
            if (r.status != 200 || app_title(r.json()) != title) return false;
        }
        return true;
    }, 5000));
    on_every_process(auth, "/api/cabinet/me", [&](const auto& me) { BOOST_TEST(app_title(me) == title); });
}

// A restored database can also count up again to the very number a copy holds, with other
// data under it (restored at 5, then two changes: a 7 unlike the 7 before). Meeting it
// reconnects the listeners, and that marks every copy stale, for the requests that carry
// the version they read as well as for the public ones.
BOOST_AUTO_TEST_CASE(a_reconnection_flushes_a_copy_even_when_the_number_is_the_same) {
    BOOST_TEST_REQUIRE(every_process_listening());
    const WarmCopies held;
    Cleanup cleanup;
    cleanup.add("UPDATE app_config SET title = '" + held.title + "'");
    const int64_t version = count("SELECT version FROM catalog_version");

    const std::string title = "Same number " + str(held.tg);
    exec("ALTER TABLE app_config DISABLE TRIGGER app_config_catalog_changed; UPDATE app_config SET title = '" + title +
         "'; ALTER TABLE app_config ENABLE TRIGGER app_config_catalog_changed");
    BOOST_TEST_REQUIRE(count("SELECT version FROM catalog_version") == version);
    cut_listeners();
    BOOST_TEST_REQUIRE(every_process_listening());
    // The reconnection forgot the accounts held, so each of these reads the account and
    // the version with it: the number each process's copy already has.
    on_every_process(held.auth, "/api/cabinet/me", [&](const auto& me) { BOOST_TEST(app_title(me) == title); });
}

// The reload such a mark asks for may fail while the account read before it worked (here:
// the catalogue's sales cannot be read). A request whose account read the very version held
// is then answered from that copy, as before the mark; it is not refused.
BOOST_AUTO_TEST_CASE(a_failed_reload_of_the_same_number_answers_from_the_copy) {
    BOOST_TEST_REQUIRE(every_process_listening());
    const WarmCopies held;
    Cleanup cleanup;
    cleanup.add("GRANT SELECT ON sales TO CURRENT_USER");
    exec("REVOKE SELECT ON sales FROM CURRENT_USER");
    cut_listeners();
    BOOST_TEST_REQUIRE(every_process_listening());
    on_every_process(held.auth, "/api/cabinet/me", [&](const auto& me) { BOOST_TEST(app_title(me) == held.title); });
}

// A purchase prices from the process's copy only when that copy is the very version its
// locked read saw. Here the price changes and the version moves with no notification (one
// that is late, as far as the pool can tell): every process still holds the old copy, and
// every purchase must pay the new price all the same.
BOOST_AUTO_TEST_CASE(a_purchase_after_a_price_change_pays_the_new_price_before_any_notification) {
    // Every process listening (an earlier test cut them), so that each holds a copy it
    // would trust if only notifications mattered.
    BOOST_TEST_REQUIRE(every_process_listening());
    const Shopper buyer = new_shopper();
    const int64_t before = count("SELECT price_minor FROM plan_durations d JOIN plans p ON p.id = d.plan_id"
                                 " WHERE p.public_code = 'standard' AND d.days = 30");
    const std::string standard_30 = "days = 30 AND plan_id = (SELECT id FROM plans WHERE public_code = 'standard')";
    Cleanup cleanup;
    cleanup.add("UPDATE plan_durations SET price_minor = " + str(before) + " WHERE " + standard_30);
    on_every_process(buyer.auth, "/api/cabinet/plans", [&](const auto& plans) { BOOST_TEST(standard_30_list_price(plans) == before); });

    const int64_t price = before + 1234;
    exec("ALTER TABLE plan_durations DISABLE TRIGGER plan_durations_catalog_changed; UPDATE plan_durations SET price_minor = " +
         str(price) + " WHERE " + standard_30 +
         "; ALTER TABLE plan_durations ENABLE TRIGGER plan_durations_catalog_changed;"
         " UPDATE catalog_version SET version = version + 1");
    const int purchases = 3 * pool_processes();  // three from each process
    set_balance(buyer.tg, purchases * price);
    for (int i = 0; i < purchases; ++i) {
        const auto r = pool_request(1 + i % pool_processes(), "POST", "/api/cabinet/purchase", buyer.auth,
                                    R"({"plan_id":"standard","days":30,"method":"balance"})");
        BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    }
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + str(buyer.id) +
                     " AND type = 'subscription_payment' AND amount_minor = " + str(price)) == purchases);
    BOOST_TEST(books(buyer).balance == 0);
}

BOOST_AUTO_TEST_SUITE_END()
