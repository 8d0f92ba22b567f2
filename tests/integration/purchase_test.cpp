// POST /api/cabinet/purchase from the balance: displayed = charged, money is race-proof,
// idempotent, and nothing is charged when the panel or the balance says no.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

HttpResult buy(const std::string& auth, const std::string& body, const std::string& key = {}) {
    std::vector<std::string> headers = {auth, "Content-Type: application/json"};
    if (!key.empty()) headers.push_back("Idempotency-Key: " + key);
    return http("POST", "/api/cabinet/purchase", headers, body);
}

const std::string kStandard30 = R"({"plan_id":"standard","days":30,"method":"balance"})";

// A user who exists (first contact made) with the given balance.
std::pair<int64_t, std::string> buyer(int64_t balance) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, balance);
    return {tg, auth};
}

// A buyer of the 100 GB plan whose panel user has used `share` of it (1.0: all, and the
// subscription shows "limited"; GET /traffic read the panel's figure). Its panel uuid.
std::string with_traffic_used(int64_t tg, const std::string& auth, const std::string& plan_body, double share) {
    BOOST_REQUIRE(buy(auth, plan_body).status == 200);
    const auto users = http_url("GET", "http://127.0.0.1:" + env("PANEL_PORT") + "/api/users/by-telegram-id/" + std::to_string(tg)).json();
    const std::string uuid = users["response"][0]["uuid"].GetString();
    const int64_t limit = count("SELECT traffic_limit_bytes FROM subscriptions WHERE user_id = " + uid_of(tg));
    BOOST_REQUIRE(limit > 0);
    const auto used = static_cast<int64_t>(static_cast<double>(limit) * share);
    BOOST_REQUIRE(http_url("POST", "http://127.0.0.1:" + env("PANEL_PORT") + "/__mock/users/" + uuid + "/traffic",
                           {"Content-Type: application/json"}, "{\"usedTrafficBytes\":" + std::to_string(used) + "}")
                      .status == 200);
    BOOST_REQUIRE(http("GET", "/api/cabinet/traffic", {auth}).json()["used_bytes"].GetInt64() == used);
    const std::string status = http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["status"].GetString();
    BOOST_REQUIRE(status == (used >= limit ? "limited" : "active"));
    return uuid;
}

int64_t panel_used(const std::string& uuid) {
    return http_url("GET", "http://127.0.0.1:" + env("PANEL_PORT") + "/api/users/" + uuid).json()["response"]["userTraffic"]["usedTrafficBytes"].GetInt64();
}

const std::string kStart30 = R"({"plan_id":"start","days":30,"method":"balance"})";

// The panel user of a Telegram user, as the panel has it.
std::string panel_user_field(int64_t tg, const char* field) {
    const auto users = http_url("GET", "http://127.0.0.1:" + env("PANEL_PORT") + "/api/users/by-telegram-id/" + std::to_string(tg)).json();
    return users["response"][0][field].GetString();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(purchase)

// A renewal of a subscription out of traffic restores it (the panel's counter starts over):
// otherwise the customer pays and stays "limited". One with traffic left keeps what was used,
// unless the owner turns RESET_TRAFFIC_ON_PAYMENT on: then every renewal starts over.
BOOST_AUTO_TEST_CASE(a_renewal_restores_the_traffic_of_a_limited_subscription) {
    const auto [tg, auth] = buyer(100000);
    const std::string uuid = with_traffic_used(tg, auth, kStart30, 1.0);
    const auto renewed = buy(auth, kStart30);
    BOOST_REQUIRE_MESSAGE(renewed.status == 200, renewed.body);
    BOOST_TEST(panel_used(uuid) == 0);
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "active");
    BOOST_TEST(me["subscription"]["traffic"]["used_bytes"].GetInt64() == 0);
}

BOOST_AUTO_TEST_CASE(a_renewal_with_traffic_left_keeps_what_was_used) {
    const auto [tg, auth] = buyer(100000);
    const std::string uuid = with_traffic_used(tg, auth, kStart30, 0.5);
    const int64_t used = panel_used(uuid);
    BOOST_REQUIRE(buy(auth, kStart30).status == 200);
    BOOST_TEST(panel_used(uuid) == used);
}

BOOST_AUTO_TEST_CASE(with_reset_on_payment_every_renewal_starts_over) {
    PoolWith pool("RESET_TRAFFIC_ON_PAYMENT=true");
    const auto [tg, auth] = buyer(100000);
    const std::string uuid = with_traffic_used(tg, auth, kStart30, 0.5);
    BOOST_REQUIRE(buy(auth, kStart30).status == 200);
    BOOST_TEST(panel_used(uuid) == 0);
}

// DEFAULT_TRAFFIC_RESET_STRATEGY reaches each panel user at its next grant: MONTH makes a
// long plan's traffic a monthly allowance, NO_RESET (the default) one for the whole term.
BOOST_AUTO_TEST_CASE(the_owners_reset_strategy_reaches_the_panel_user_at_its_next_grant) {
    const auto [tg, auth] = buyer(100000);
    BOOST_REQUIRE(buy(auth, kStart30).status == 200);
    BOOST_TEST(panel_user_field(tg, "trafficLimitStrategy") == "NO_RESET");
    {
        PoolWith pool("DEFAULT_TRAFFIC_RESET_STRATEGY=MONTH");
        BOOST_REQUIRE(buy(auth, kStart30).status == 200);
        BOOST_TEST(panel_user_field(tg, "trafficLimitStrategy") == "MONTH");
    }
    BOOST_REQUIRE(buy(auth, kStart30).status == 200);
    BOOST_TEST(panel_user_field(tg, "trafficLimitStrategy") == "NO_RESET");
    const auto [rc, out] = run(ctl("settings set DEFAULT_TRAFFIC_RESET_STRATEGY YEARLY"));
    BOOST_TEST(rc != 0);
    BOOST_TEST(out.find("must be one of") != std::string::npos, out);
}

BOOST_AUTO_TEST_CASE(balance_purchase_extends_and_records) {
    const auto [tg, auth] = buyer(100000);
    const auto r = buy(auth, kStandard30);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto j = r.json();
    BOOST_TEST(j["ok"].GetBool());
    BOOST_TEST(std::string(j["paid_with"].GetString()) == "balance");
    BOOST_TEST(balance_of(tg) == 100000 - 29900);

    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(std::string(me["subscription"]["plan_name"].GetString()) == "Standard");
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "active");
    BOOST_TEST(me["subscription"]["device_limit"].GetInt() == 3);
    const int64_t expire1 = *cabinet::parse_iso8601(me["subscription"]["expire_at"].GetString());
    BOOST_TEST(std::llabs(expire1 - (cabinet::unix_now() + 30 * 86400)) < 120);

    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_REQUIRE(pay["items"].Size() == 1u);
    BOOST_TEST(std::string(pay["items"][0]["type"].GetString()) == "subscription_payment");
    BOOST_TEST(std::string(pay["items"][0]["status"].GetString()) == "completed");
    BOOST_TEST(pay["items"][0]["amount_minor"].GetInt64() == 29900);
    BOOST_TEST(std::string(pay["items"][0]["method"].GetString()) == "balance");
    // Frozen plan and pricing on the transaction.
    BOOST_TEST(count("SELECT (pricing->>'final_minor')::bigint FROM transactions WHERE user_id = " + uid_of(tg)) == 29900);
    BOOST_TEST(count("SELECT (plan_snapshot->>'days')::bigint FROM transactions WHERE user_id = " + uid_of(tg)) == 30);

    // Renewal adds to the time left; by numeric plan id this time.
    const int64_t standard_id = count("SELECT id FROM plans WHERE public_code = 'standard'");
    BOOST_REQUIRE(buy(auth, R"({"plan_id":)" + std::to_string(standard_id) + R"(,"days":30,"method":"balance"})").status == 200);
    const auto me2 = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(*cabinet::parse_iso8601(me2["subscription"]["expire_at"].GetString()) - expire1 == 30 * 86400);
}

BOOST_AUTO_TEST_CASE(charged_price_is_the_displayed_price) {
    const auto [tg, auth] = buyer(100000);
    exec("UPDATE users SET personal_discount_pct = 7, promo_discount_pct = 20, promo_discount_until = now() + interval '1 day'"
         " WHERE telegram_id = " + std::to_string(tg));
    const auto plans = http("GET", "/api/cabinet/plans", {auth}).json();
    int64_t shown = -1;
    for (const auto& p : plans["items"].GetArray())
        if (std::string(p["public_code"].GetString()) == "family")
            for (const auto& d : p["durations"].GetArray())
                if (d["days"].GetInt() == 90) shown = d["price_minor"].GetInt64();
    BOOST_REQUIRE(shown > 0);
    BOOST_TEST(shown == 134900 - 134900 * 27 / 100);
    BOOST_REQUIRE(buy(auth, R"({"plan_id":"family","days":90,"method":"balance"})").status == 200);
    BOOST_TEST(balance_of(tg) == 100000 - shown);
    // The promo-code offer was for one purchase.
    BOOST_TEST(count("SELECT promo_discount_pct FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);
}

BOOST_AUTO_TEST_CASE(short_balance_is_402_and_changes_nothing) {
    const auto [tg, auth] = buyer(100);
    const auto r = buy(auth, kStandard30);
    BOOST_TEST(r.status == 402);
    BOOST_TEST(r.json()["detail"].IsString());
    BOOST_TEST(balance_of(tg) == 100);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 0);
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"].IsNull());
}

BOOST_AUTO_TEST_CASE(full_discount_is_free) {
    const auto [tg, auth] = buyer(0);
    exec("UPDATE users SET personal_discount_pct = 100 WHERE telegram_id = " + std::to_string(tg));
    const auto r = buy(auth, kStandard30);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(std::string(r.json()["paid_with"].GetString()) == "free");
    BOOST_TEST(count("SELECT amount_minor FROM transactions WHERE method = 'free' AND user_id = " + uid_of(tg)) == 0);
    BOOST_TEST(std::string(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["status"].GetString()) == "active");

    // Once the owner blocks the subscription, a free order does not lift the block: 409,
    // nothing granted or recorded, on either side.
    exec("UPDATE subscriptions SET status = 'disabled' WHERE user_id = " + uid_of(tg));
    const std::string revision = "SELECT revision FROM subscriptions WHERE user_id = " + uid_of(tg);
    const int64_t before = count(revision);
    const auto blocked = buy(auth, kStandard30);
    BOOST_TEST(blocked.status == 409);
    BOOST_TEST(std::string(blocked.json()["detail"].GetString()) == "the subscription is disabled");
    BOOST_TEST(count(revision) == before);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE status = 'disabled' AND user_id = " + uid_of(tg)) == 1);
}

// A promo discount offer is for the purchase whose price it lowers. A purchase the other
// discounts make free already leaves it for the next one.
BOOST_AUTO_TEST_CASE(a_promo_offer_that_lowers_nothing_is_kept_for_the_next_purchase) {
    const auto [tg, auth] = buyer(0);
    const std::string u = uid_of(tg);
    exec("UPDATE users SET personal_discount_pct = 100, promo_discount_pct = 20,"
         " promo_discount_until = now() + interval '7 days' WHERE id = " + u);
    const auto free = buy(auth, kStandard30);
    BOOST_REQUIRE_MESSAGE(free.status == 200, free.body);
    BOOST_TEST(std::string(free.json()["paid_with"].GetString()) == "free");
    BOOST_TEST(count("SELECT promo_discount_pct FROM users WHERE id = " + u) == 20);
    // With a price left to lower, the offer is used.
    exec("UPDATE users SET personal_discount_pct = 0 WHERE id = " + u);
    set_balance(tg, 100000);
    BOOST_REQUIRE_EQUAL(buy(auth, kStandard30).status, 200);
    BOOST_TEST(balance_of(tg) == 100000 - (29900 - 29900 * 20 / 100));
    BOOST_TEST(count("SELECT promo_discount_pct FROM users WHERE id = " + u) == 0);
}

BOOST_AUTO_TEST_CASE(idempotency_key_makes_a_repeat_409) {
    const auto [tg, auth] = buyer(100000);
    BOOST_REQUIRE(buy(auth, kStandard30, "order-1").status == 200);
    const auto again = buy(auth, kStandard30, "order-1");
    BOOST_TEST(again.status == 409);
    BOOST_TEST(std::string(again.json()["detail"].GetString()).find("transaction") != std::string::npos);
    BOOST_TEST(balance_of(tg) == 100000 - 29900);
    // Concurrent repeats of one key: still one purchase.
    std::vector<long> statuses(10);
    std::vector<std::thread> threads;
    for (int i = 0; i < 10; ++i) threads.emplace_back([&, i] { statuses[i] = buy(auth, kStandard30, "order-2").status; });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 200L) == 1);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 409L) == 9);
    BOOST_TEST(balance_of(tg) == 100000 - 2 * 29900);
}

BOOST_AUTO_TEST_CASE(hundred_parallel_purchases_with_money_for_three) {
    const auto [tg, auth] = buyer(3 * 29900 + 100);
    constexpr int kParallel = 100;
    std::vector<long> statuses(kParallel);
    std::vector<std::thread> threads;
    for (int i = 0; i < kParallel; ++i) threads.emplace_back([&, i] { statuses[i] = buy(auth, kStandard30).status; });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 200L) == 3);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 402L) == kParallel - 3);
    BOOST_TEST(balance_of(tg) == 100);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 3);
}

BOOST_AUTO_TEST_CASE(panel_down_charges_nothing) {
    const auto [tg, auth] = buyer(100000);
    stack_svc("stop", "mock-panel");
    const auto r = buy(auth, kStandard30);
    stack_svc("start", "mock-panel");
    BOOST_TEST(r.status == 502);
    BOOST_TEST(balance_of(tg) == 100000);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 0);
}

BOOST_AUTO_TEST_CASE(bad_requests) {
    const auto [tg, auth] = buyer(100000);
    const std::vector<std::pair<std::string, long>> cases = {
        {"{", 400},
        {R"({"plan_id":"standard","days":30})", 400},                   // no method
        {R"({"plan_id":true,"days":30,"method":"balance"})", 400},      // wrong type
        {R"({"plan_id":"standard","days":"30","method":"balance"})", 400},
        // Unknown plan, code or period: 400 as the original answers (SPEC-GAPS "/purchase").
        {R"({"plan_id":"nope","days":30,"method":"balance"})", 400},
        {R"({"plan_id":999999999,"days":30,"method":"balance"})", 400},
        {R"({"plan_id":"standard","days":31,"method":"balance"})", 400},
        {R"({"period_id":1,"pack_id":1,"method":"balance"})", 400},     // wrong sales mode
        {R"({"plan_id":"standard","days":30,"method":"bitcoin"})", 400},
    };
    for (const auto& [body, status] : cases) {
        BOOST_TEST_CONTEXT(body) {
            const auto r = buy(auth, body);
            BOOST_TEST(r.status == status);
            BOOST_TEST(r.json()["detail"].IsString());
        }
    }
    BOOST_TEST(balance_of(tg) == 100000);
}

BOOST_AUTO_TEST_CASE(referrer_earns_commission_and_bonus_days_once) {
    const int64_t ref_tg = fresh_telegram_id();
    const std::string ref_auth = tma_header(ref_tg);
    const std::string code = http("GET", "/api/cabinet/me", {ref_auth}).json()["user"]["referral_code"].GetString();
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {ref_auth}).status == 200);  // something to extend
    const std::string ref_expire = "SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + uid_of(ref_tg);
    const int64_t before = count(ref_expire);

    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Invited", "ref_" + code);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 100000);
    BOOST_REQUIRE(buy(auth, kStandard30).status == 200);
    BOOST_REQUIRE(buy(auth, kStandard30).status == 200);
    BOOST_TEST(balance_of(ref_tg) == 2 * 2990);  // REFERRAL_PERCENT 10 of 29900, per purchase
    const auto ref = http("GET", "/api/cabinet/referral", {ref_auth}).json();
    BOOST_TEST(ref["invited_count"].GetInt() == 1);
    BOOST_TEST(ref["earnings_minor"].GetInt64() == 2 * 2990);
    // REFERRAL_BONUS_DAYS (7) once, after the first paid purchase, by the worker.
    bool extended = false;
    for (int i = 0; i < 200 && !extended; ++i) {
        extended = count(ref_expire) - before == 7 * 86400;
        if (!extended) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    BOOST_TEST(extended);
    const std::string bonus_jobs =
        "SELECT count(*) FROM jobs WHERE kind = 'referral_bonus' AND payload->>'referral_id' = " + uid_of(tg) + "::text";
    BOOST_TEST(count(bonus_jobs) == 1);

    // Weeks later the daily cleanup runs, and then the referral renews: still no second bonus.
    exec("UPDATE jobs SET finished_at = now() - interval '30 days' WHERE kind = 'referral_bonus' AND payload->>'referral_id' = " +
         uid_of(tg) + "::text");
    const auto [rc, out] = run(ctl("cleanup"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    BOOST_REQUIRE(buy(auth, kStandard30).status == 200);
    BOOST_TEST(balance_of(ref_tg) == 3 * 2990);
    BOOST_TEST(count(bonus_jobs) == 1);  // a second one would be queued by the purchase itself
}

// The bonus is a free grant: it never lifts the owner's block on the referrer.
BOOST_AUTO_TEST_CASE(a_referrers_disabled_subscription_gets_no_bonus_days) {
    const int64_t ref_tg = fresh_telegram_id();
    const std::string ref_auth = tma_header(ref_tg);
    const std::string code = http("GET", "/api/cabinet/me", {ref_auth}).json()["user"]["referral_code"].GetString();
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {ref_auth}).status == 200);
    exec("UPDATE subscriptions SET status = 'disabled' WHERE user_id = " + uid_of(ref_tg));
    const std::string ref_revision = "SELECT revision FROM subscriptions WHERE user_id = " + uid_of(ref_tg);
    const int64_t before = count(ref_revision);

    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Invited", "ref_" + code);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 100000);
    BOOST_REQUIRE(buy(auth, kStandard30).status == 200);
    const std::string done = "SELECT count(*) FROM jobs WHERE kind = 'referral_bonus' AND status = 'done' AND payload->>'referral_id' = " +
                             uid_of(tg) + "::text";
    BOOST_REQUIRE(wait_until([&] { return count(done) == 1; }, 20000));
    BOOST_TEST(count(ref_revision) == before);  // every write of a subscription bumps it
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE status = 'disabled' AND user_id = " + uid_of(ref_tg)) == 1);
}

BOOST_AUTO_TEST_CASE(constructor_mode_builds_the_price) {
    struct Pool {
        Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool", "SALES_MODE=constructor"); }
        ~Pool() { stack_svc("stop", "pool"); stack_svc("start", "pool"); }
    } pool;
    const auto [tg, auth] = buyer(1000000);
    const ConstructorChoice choice = first_constructor_choice(auth);
    const int64_t price = choice.price_minor;
    const auto r = buy(auth, choice.purchase_body());
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(balance_of(tg) == 1000000 - price);
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(me["subscription"]["traffic"]["limit_bytes"].GetInt64() == choice.gb * 1024LL * 1024 * 1024);
    BOOST_TEST(buy(auth, kStandard30).status == 400);  // plans are not sold in this mode
    // An unknown period or pack is a 400 (SPEC-GAPS "/purchase"), and nothing is charged.
    const std::string period_id = std::to_string(choice.period_id), pack_id = std::to_string(choice.pack_id);
    BOOST_TEST(buy(auth, R"({"period_id":999999999,"pack_id":)" + pack_id + R"(,"method":"balance"})").status == 400);
    BOOST_TEST(buy(auth, R"({"period_id":)" + period_id + R"(,"pack_id":999999999,"method":"balance"})").status == 400);
    BOOST_TEST(balance_of(tg) == 1000000 - price);
}

BOOST_AUTO_TEST_SUITE_END()
