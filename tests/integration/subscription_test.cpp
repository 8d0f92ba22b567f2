// Trial, connection links, link rotation, devices and traffic, end to end through nginx,
// the pool and the mock panel (SPEC "POST /trial", "GET /connection", "GET /devices",
// "POST /subscription/reset-devices").
#include <boost/test/unit_test.hpp>

#include <thread>

#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

std::string panel(const std::string& path) { return "http://127.0.0.1:" + env("PANEL_PORT") + path; }

// Panel users the mock holds for a Telegram id.
size_t panel_users(int64_t tg) {
    const auto r = http_url("GET", panel("/api/users/by-telegram-id/" + std::to_string(tg)));
    if (r.status == 404) return 0;
    return r.json()["response"].GetArray().Size();
}

struct PanelDown {
    PanelDown() { stack_svc("stop", "mock-panel"); }
    ~PanelDown() { stack_svc("start", "mock-panel"); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(subscription)

BOOST_AUTO_TEST_CASE(trial_activates_once) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).json()["user"]["is_trial_available"].GetBool());

    const auto r = http("POST", "/api/cabinet/trial", {auth});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto j = r.json();
    BOOST_TEST(j["ok"].GetBool());
    BOOST_TEST(j["days"].GetInt() == 3);
    BOOST_TEST(std::string(j["subscription"]["status"].GetString()) == "trial");
    BOOST_TEST(j["subscription"]["is_trial"].GetBool());
    BOOST_TEST(j["subscription"]["device_limit"].GetInt() == 1);
    BOOST_TEST(j["subscription"]["traffic"]["limit_bytes"].GetInt64() == 10LL * 1024 * 1024 * 1024);
    BOOST_TEST(std::string(j["subscription"]["subscription_url"].GetString()).find("/sub/") != std::string::npos);
    BOOST_TEST(panel_users(tg) == 1u);

    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(me["user"]["is_trial_available"].GetBool() == false);
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "trial");

    const auto again = http("POST", "/api/cabinet/trial", {auth});
    BOOST_TEST(again.status == 400);
    BOOST_TEST(std::string(again.json()["detail"].GetString()) == "trial already used");
}

BOOST_AUTO_TEST_CASE(trial_refused_with_a_running_subscription) {
    const auto r = http("POST", "/api/cabinet/trial", {tma_header(100000001, "Demo")});
    BOOST_TEST((r.status == 409 || r.status == 400));  // demo user: active subscription
}

// A trial never takes the place of paid days or of an owner's block: a paid subscription out
// of traffic keeps its expiry (the trial would make them trial days, which the next purchase
// drops), a disabled one stays disabled; an expired paid one may still take the trial.
BOOST_AUTO_TEST_CASE(trial_refused_over_paid_days_or_a_block) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    const std::string uid = std::to_string(count("SELECT id FROM users WHERE telegram_id = " + std::to_string(tg)));
    const std::string where = " WHERE user_id = " + uid;
    exec("INSERT INTO subscriptions (user_id, status, expire_at, traffic_limit_bytes, traffic_used_bytes) VALUES (" +
         uid + ", 'active', now() + interval '20 days', 100, 100)");
    const int64_t expiry = count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions" + where);
    const auto expect_refused = [&](const char* detail) {
        const auto r = http("POST", "/api/cabinet/trial", {auth});
        BOOST_TEST(r.status == 409, r.body);
        BOOST_TEST(std::string(r.json()["detail"].GetString()) == detail);
        BOOST_TEST(count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions" + where) == expiry);
        BOOST_TEST(count("SELECT count(*) FROM subscriptions" + where + " AND NOT is_trial") == 1);
        BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["user"]["is_trial_available"].GetBool());
        BOOST_TEST(panel_users(tg) == 0u);
    };
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["status"].GetString() == std::string("limited"));
    expect_refused("a paid subscription still has days left");
    exec("UPDATE subscriptions SET status = 'disabled', traffic_used_bytes = 0" + where);
    expect_refused("the subscription is disabled");
    exec("UPDATE subscriptions SET status = 'expired', expire_at = now() - interval '1 day'" + where);
    const auto taken = http("POST", "/api/cabinet/trial", {auth});
    BOOST_TEST(taken.status == 200, taken.body);
    BOOST_TEST(taken.json()["subscription"]["is_trial"].GetBool());
}

BOOST_AUTO_TEST_CASE(parallel_trials_give_one_trial_one_panel_user_one_charge) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 10000);
    // A paid trial this time, so a double charge would show.
    struct Pool {
        Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool", "TRIAL_PRICE=1500"); }
        ~Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool"); }
    } pool;
    constexpr int kParallel = 50;
    std::vector<long> statuses(kParallel);
    std::vector<std::thread> threads;
    for (int i = 0; i < kParallel; ++i)
        threads.emplace_back([&, i] { statuses[i] = http("POST", "/api/cabinet/trial", {auth}).status; });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 200L) == 1);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 400L) == kParallel - 1);
    BOOST_TEST(panel_users(tg) == 1u);
    BOOST_TEST(balance_of(tg) == 10000 - 1500);
    BOOST_TEST(count("SELECT count(*) FROM transactions t JOIN users u ON u.id = t.user_id WHERE u.telegram_id = " +
                     std::to_string(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(paid_trial_needs_balance) {
    struct Pool {
        Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool", "TRIAL_PRICE=5000"); }
        ~Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool"); }
    } pool;
    const int64_t tg = fresh_telegram_id();
    const auto r = http("POST", "/api/cabinet/trial", {tma_header(tg)});
    BOOST_TEST(r.status == 402);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE trial_used AND telegram_id = " + std::to_string(tg)) == 0);
    BOOST_TEST(panel_users(tg) == 0u);
}

BOOST_AUTO_TEST_CASE(panel_down_during_trial_changes_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    {
        PanelDown down;
        const auto r = http("POST", "/api/cabinet/trial", {auth});
        BOOST_TEST(r.status == 502);
        BOOST_TEST(r.json()["detail"].IsString());
    }
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(me["user"]["is_trial_available"].GetBool());
    BOOST_TEST(me["subscription"].IsNull());
    BOOST_TEST(http("POST", "/api/cabinet/trial", {auth}).status == 200);  // and it works once the panel is back
}

BOOST_AUTO_TEST_CASE(connection_links_and_rotation) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_TEST(http("GET", "/api/cabinet/connection", {auth}).status == 404);  // nothing to connect yet
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);

    const auto c = http("GET", "/api/cabinet/connection", {auth}).json();
    const std::string url = c["subscription_url"].GetString();
    BOOST_TEST(std::string(c["deep_links"]["happ"].GetString()) == "happ://add/" + url);
    BOOST_TEST(std::string(c["deep_links"]["v2raytun"].GetString()) == "v2raytun://import/" + url);
    BOOST_TEST(std::string(c["deep_links"]["hiddify"].GetString()) == "hiddify://import/" + url);
    BOOST_TEST(std::string(c["deep_links"]["streisand"].GetString()) == "streisand://import/" + url);
    BOOST_TEST(c["deep_links"].MemberCount() == 4u);
    BOOST_TEST(c["apps"].Size() == 4u);
    BOOST_TEST(std::string(c["apps"][0]["key"].GetString()) == "happ");
    BOOST_TEST(c["apps"][0]["stores"]["android"].IsString());
    BOOST_TEST(c["hide_link"].GetBool() == false);
    BOOST_TEST(http_url("GET", url).status == 200);  // the mock serves the subscription

    const int64_t reset_started = cabinet::unix_now();
    const auto reset = http("POST", "/api/cabinet/subscription/reset-link", {auth});
    BOOST_REQUIRE_MESSAGE(reset.status == 200, reset.body);
    const std::string new_url = reset.json()["subscription_url"].GetString();
    BOOST_TEST(new_url != url);
    BOOST_TEST(std::string(reset.json()["deep_links"]["hiddify"].GetString()) == "hiddify://import/" + new_url);
    BOOST_TEST(http_url("GET", url).status == 404);      // the old link died at once
    BOOST_TEST(http_url("GET", new_url).status == 200);
    BOOST_TEST(std::string(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["subscription_url"].GetString()) == new_url);

    auto again = http("POST", "/api/cabinet/subscription/reset-devices", {auth});
    BOOST_TEST(again.status == 429);
    const int retry_after = std::stoi(again.headers["retry-after"]);
    const int64_t elapsed = cabinet::unix_now() - reset_started;
    BOOST_TEST(retry_after <= 600);
    BOOST_TEST(retry_after >= 600 - elapsed - 1);
    // The limit lives in PostgreSQL: it holds with Redis gone too.
    stack_svc("stop", "redis");
    BOOST_TEST(http("POST", "/api/cabinet/subscription/reset-link", {auth}).status == 429);
    stack_svc("start", "redis");
    // Ten minutes later it is allowed again.
    exec("UPDATE subscriptions SET link_reset_at = now() - interval '601 seconds' WHERE user_id = "
         "(SELECT id FROM users WHERE telegram_id = " + std::to_string(tg) + ")");
    BOOST_TEST(http("POST", "/api/cabinet/subscription/reset-link", {auth}).status == 200);
}

BOOST_AUTO_TEST_CASE(reset_with_panel_down_keeps_link_and_allowance) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string url = http("GET", "/api/cabinet/connection", {auth}).json()["subscription_url"].GetString();
    {
        PanelDown down;
        BOOST_TEST(http("POST", "/api/cabinet/subscription/reset-link", {auth}).status == 502);
    }
    BOOST_TEST(std::string(http("GET", "/api/cabinet/connection", {auth}).json()["subscription_url"].GetString()) == url);
    BOOST_TEST(http("POST", "/api/cabinet/subscription/reset-link", {auth}).status == 200);  // not counted as used
}

// The revoke cannot be undone: once the panel has a new link, a failure to drop the open
// connections afterwards must not leave the dead old link stored and handed out.
BOOST_AUTO_TEST_CASE(a_reset_whose_connection_drop_fails_still_gives_the_new_link) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string url = http("GET", "/api/cabinet/connection", {auth}).json()["subscription_url"].GetString();
    BOOST_REQUIRE(http_url("POST", panel("/__mock/fault"), {"Content-Type: application/json"},
                           R"({"mode":"status500","times":1,"path":"/api/ip-control/drop-connections"})")
                      .status == 200);
    const auto reset = http("POST", "/api/cabinet/subscription/reset-link", {auth});
    http_url("POST", panel("/__mock/reset-faults"));
    BOOST_REQUIRE_MESSAGE(reset.status == 200, reset.body);
    const std::string new_url = reset.json()["subscription_url"].GetString();
    BOOST_TEST(new_url != url);
    BOOST_TEST(http_url("GET", url).status == 404);
    BOOST_TEST(http_url("GET", new_url).status == 200);
    BOOST_TEST(std::string(http("GET", "/api/cabinet/connection", {auth}).json()["subscription_url"].GetString()) == new_url);
}

BOOST_AUTO_TEST_CASE(devices_list_and_unbind) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    auto none = http("GET", "/api/cabinet/devices", {auth});
    BOOST_TEST(none.status == 200);
    BOOST_TEST(none.json()["items"].Size() == 0u);
    BOOST_TEST(none.json()["device_limit"].IsNull());
    BOOST_TEST(http("DELETE", "/api/cabinet/devices/abc", {auth}).status == 400);

    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const auto list = http("GET", "/api/cabinet/devices", {auth}).json();
    BOOST_REQUIRE(list["items"].Size() == 2u);  // the mock's two demo devices
    BOOST_TEST(list["device_limit"].GetInt() == 1);
    const std::string hwid = list["items"][0]["hwid"].GetString();
    BOOST_TEST(list["items"][0]["platform"].IsString());
    BOOST_TEST(list["items"][0]["model"].IsString());
    BOOST_TEST(list["items"][0]["created_at"].IsString());

    BOOST_TEST(http("DELETE", "/api/cabinet/devices/not-a-device", {auth}).status == 404);
    const auto del = http("DELETE", "/api/cabinet/devices/" + hwid, {auth});
    BOOST_TEST(del.status == 200);
    BOOST_TEST(del.json()["ok"].GetBool());
    BOOST_TEST(http("GET", "/api/cabinet/devices", {auth}).json()["items"].Size() == 1u);
    PanelDown down;
    BOOST_TEST(http("GET", "/api/cabinet/devices", {auth}).status == 502);
}

BOOST_AUTO_TEST_CASE(traffic_without_and_with_subscription) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    auto t = http("GET", "/api/cabinet/traffic", {auth}).json();
    BOOST_TEST(t["used_bytes"].GetInt64() == 0);
    BOOST_TEST(t["unlimited"].GetBool());
    BOOST_TEST(t["series"].Size() == 0u);

    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string uid = "(SELECT id FROM users WHERE telegram_id = " + std::to_string(tg) + ")";
    exec("INSERT INTO traffic_snapshots (user_id, day, used_bytes) SELECT " + uid +
         ", current_date - d, 1000 * (40 - d) FROM generate_series(1, 39) d");
    t = http("GET", "/api/cabinet/traffic", {auth}).json();
    BOOST_TEST(t["limit_bytes"].GetInt64() == 10LL * 1024 * 1024 * 1024);
    BOOST_TEST(t["unlimited"].GetBool() == false);
    BOOST_REQUIRE(t["series"].Size() == 30u);  // the newest 30 days, oldest first
    BOOST_TEST(std::string(t["series"][0]["day"].GetString()) < std::string(t["series"][29]["day"].GetString()));
    // Today's point is the panel's current figure.
    BOOST_TEST(t["series"][29]["used_bytes"].GetInt64() == t["used_bytes"].GetInt64());
    PanelDown down;  // the last synced value stands in for the panel
    BOOST_TEST(http("GET", "/api/cabinet/traffic", {auth}).status == 200);
}

// GET /traffic asks the panel once per TRAFFIC_FRESH_S (60 s in the stack) per user, not on
// every reload of the chart; an older figure is refreshed (issue 17).
BOOST_AUTO_TEST_CASE(traffic_asks_the_panel_only_when_the_stored_figure_is_old) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string uuid = "(SELECT panel_uuid::text FROM subscriptions s JOIN users u ON u.id = s.user_id"
                             " WHERE u.telegram_id = " + std::to_string(tg) + ")";
    const std::string panel_uuid = [&] {
        pqxx::connection c(env("DATABASE_URL"));
        pqxx::nontransaction t(c);
        return std::string(t.exec1("SELECT " + uuid)[0].c_str());
    }();
    const std::string journal = "http://127.0.0.1:" + env("PANEL_PORT") + "/__mock/journal";
    auto panel_reads = [&] {
        int n = 0;
        const auto doc = http_url("GET", journal).json();  // kept: the loop reads into it
        for (const auto& e : doc["response"].GetArray())
            if (std::string(e["method"].GetString()) == "GET" &&
                std::string(e["path"].GetString()) == "/api/users/" + panel_uuid)
                ++n;
        return n;
    };
    const int before = panel_reads();
    for (int i = 0; i < 5; ++i) BOOST_TEST(http("GET", "/api/cabinet/traffic", {auth}).status == 200);
    BOOST_TEST(panel_reads() == before + 1);  // the first one (never synced), then the stored figure

    exec("UPDATE subscriptions SET traffic_synced_at = now() - interval '61 seconds' WHERE panel_uuid::text = '" +
         panel_uuid + "'");
    BOOST_TEST(http("GET", "/api/cabinet/traffic", {auth}).status == 200);
    BOOST_TEST(panel_reads() == before + 2);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE panel_uuid::text = '" + panel_uuid +
                     "' AND traffic_synced_at > now() - interval '10 seconds'") == 1);
}

BOOST_AUTO_TEST_CASE(hidden_link_hides_the_url_but_not_the_import_links) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    struct Pool {
        Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool", "HIDE_SUBSCRIPTION_LINK=true"); }
        ~Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool"); }
    } pool;
    const auto c = http("GET", "/api/cabinet/connection", {auth}).json();
    BOOST_TEST(c["subscription_url"].IsNull());
    BOOST_TEST(c["hide_link"].GetBool());
    BOOST_TEST(std::string(c["deep_links"]["v2raytun"].GetString()).find("v2raytun://import/http") == 0u);
}

// cabinetctl sync-panel mirrors what happened on the panel side (an admin disabled the
// user there) and records today's usage for the chart.
BOOST_AUTO_TEST_CASE(panel_sync_mirrors_status_and_usage) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string uid = "(SELECT id FROM users WHERE telegram_id = " + std::to_string(tg) + ")";
    const auto users = http_url("GET", panel("/api/users/by-telegram-id/" + std::to_string(tg))).json();
    const std::string uuid = users["response"][0]["uuid"].GetString();
    BOOST_REQUIRE(http_url("POST", panel("/api/users/" + uuid + "/actions/disable"), {"Content-Type: application/json"}, "{}").status == 200);

    const std::string cmd = "STACK_DIR='" + env("STACK_DIR") + "' '" + env("CABINET_STACK") + "' ctl sync-panel >/dev/null 2>&1";
    BOOST_REQUIRE(std::system(cmd.c_str()) == 0);
    BOOST_TEST(std::string(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["status"].GetString()) == "disabled");
    BOOST_TEST(count("SELECT count(*) FROM traffic_snapshots WHERE day = (now() AT TIME ZONE 'UTC')::date AND user_id = " + uid) == 1);
    BOOST_TEST(http("GET", "/api/cabinet/connection", {auth}).status == 404);  // a disabled subscription gives no access
}

BOOST_AUTO_TEST_SUITE_END()
