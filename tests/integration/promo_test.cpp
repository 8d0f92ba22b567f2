// POST /api/cabinet/promocode: every reward type, every refusal, and the race on a
// one-use code.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <thread>

#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

std::string new_code(const std::string& type, int64_t value, const std::string& extra_cols = "",
                     const std::string& extra_vals = "") {
    const std::string code = "T" + std::to_string(fresh_telegram_id());
    exec("INSERT INTO promo_codes (code, reward_type, value" + extra_cols + ") VALUES ('" + code + "', '" + type + "', " +
         std::to_string(value) + extra_vals + ")");
    return code;
}

HttpResult activate(const std::string& auth, const std::string& code) {
    return http("POST", "/api/cabinet/promocode", {auth, "Content-Type: application/json"}, "{\"code\":\"" + code + "\"}");
}

std::string user_where(int64_t tg) { return " WHERE telegram_id = " + std::to_string(tg); }

}  // namespace

BOOST_AUTO_TEST_SUITE(promo)

BOOST_AUTO_TEST_CASE(balance_reward_case_insensitive_once_per_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const std::string code = new_code("balance", 5000);
    std::string lower = code;
    for (auto& c : lower) c = static_cast<char>(std::tolower(c));
    const auto r = activate(auth, lower);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto j = r.json();
    BOOST_TEST(j["ok"].GetBool());
    BOOST_TEST(std::string(j["reward_type"].GetString()) == "balance");
    BOOST_TEST(j["message"].IsString());
    BOOST_TEST(count("SELECT balance_minor FROM users" + user_where(tg)) == 5000);
    const auto payments = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(payments["user"]["balance_minor"].GetInt64() == 5000);

    const auto again = activate(auth, code).json();
    BOOST_TEST(again["ok"].GetBool() == false);
    BOOST_TEST(again["reward_type"].IsNull());
    BOOST_TEST(std::string(again["message"].GetString()).find("already") != std::string::npos);
    BOOST_TEST(count("SELECT balance_minor FROM users" + user_where(tg)) == 5000);
}

// Trimmed and case-insensitive, in storage and on activation (SPEC-GAPS "/purchase"): a
// code written with spaces (by the bot, say) is stored trimmed, and one pasted with spaces
// and in another case is the same code.
BOOST_AUTO_TEST_CASE(codes_are_trimmed_in_storage_and_on_activation) {
    const std::string code = "Tr" + std::to_string(fresh_telegram_id());
    exec("INSERT INTO promo_codes (code, reward_type, value) VALUES ('  " + code + "\t', 'balance', 700)");
    BOOST_TEST(count("SELECT count(*) FROM promo_codes WHERE code = '" + code + "'") == 1);
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    std::string upper = code;
    for (auto& c : upper) c = static_cast<char>(std::toupper(c));
    const auto r = activate(auth, "  " + upper + " ");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.json()["ok"].GetBool());
    BOOST_TEST(count("SELECT balance_minor FROM users" + user_where(tg)) == 700);
    BOOST_TEST(activate(auth, "   ").status == 400);  // nothing left after trimming
}

BOOST_AUTO_TEST_CASE(refusals_are_200_with_a_message) {
    const std::string auth = tma_header(fresh_telegram_id());
    const std::vector<std::string> codes = {
        "NOSUCHCODE",
        new_code("balance", 100, ", valid_until", ", now() - interval '1 day'"),
        new_code("balance", 100, ", valid_from", ", now() + interval '1 day'"),
        new_code("balance", 100, ", is_active", ", false"),
        new_code("balance", 100, ", max_uses, uses", ", 2, 2"),
    };
    for (const auto& code : codes) {
        BOOST_TEST_CONTEXT(code) {
            const auto r = activate(auth, code);
            BOOST_TEST(r.status == 200);
            BOOST_TEST(r.json()["ok"].GetBool() == false);
            BOOST_TEST(std::string(r.json()["message"].GetString()).size() > 5u);
        }
    }
}

// Codes are words: a user's unknown codes are limited (10 a window), all at once as one by
// one, and past the limit even a real code waits (nothing is granted, nothing counted).
BOOST_AUTO_TEST_CASE(guessing_codes_is_limited_per_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    const std::string real = new_code("balance", 100);
    std::vector<long> statuses(25);
    std::vector<std::thread> threads;
    for (int i = 0; i < 25; ++i)
        threads.emplace_back([&, i] { statuses[i] = activate(auth, "GUESS" + std::to_string(i)).status; });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 200L) == 10);
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 429L) == 15);
    const auto late = activate(auth, real);
    BOOST_TEST(late.status == 429);
    BOOST_TEST(std::stoll(late.headers.at("retry-after")) >= 1);
    BOOST_TEST(late.json()["detail"].IsString());
    BOOST_TEST(count("SELECT balance_minor FROM users" + user_where(tg)) == 0);
    // Another user is not affected.
    const auto other = activate(tma_header(fresh_telegram_id()), real);
    BOOST_TEST(other.status == 200);
    BOOST_TEST(other.json()["ok"].GetBool());
}

BOOST_AUTO_TEST_CASE(bad_bodies_are_400_and_change_nothing) {
    const std::string auth = tma_header(fresh_telegram_id());
    const std::vector<std::string> bodies = {"", "{", "[]", "{\"code\":1}", "{\"code\":\"x\"}",
                                             "{\"code\":\"" + std::string(65, 'A') + "\"}", "{\"other\":\"ABC\"}"};
    for (const auto& b : bodies) {
        BOOST_TEST_CONTEXT(b) {
            const auto r = http("POST", "/api/cabinet/promocode", {auth, "Content-Type: application/json"}, b);
            BOOST_TEST(r.status == 400);
            BOOST_TEST(r.json()["detail"].IsString());
        }
    }
}

BOOST_AUTO_TEST_CASE(days_need_a_subscription_and_extend_it) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const std::string code = new_code("days", 10);
    BOOST_TEST(activate(auth, code).json()["ok"].GetBool() == false);  // nothing to extend
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const auto before = count("SELECT extract(epoch FROM s.expire_at)::bigint FROM subscriptions s JOIN users u ON u.id = s.user_id" + user_where(tg));
    const auto r = activate(auth, code).json();
    BOOST_TEST(r["ok"].GetBool());
    BOOST_TEST(std::string(r["reward_type"].GetString()) == "days");
    const auto after = count("SELECT extract(epoch FROM s.expire_at)::bigint FROM subscriptions s JOIN users u ON u.id = s.user_id" + user_where(tg));
    BOOST_TEST(after - before == 10 * 86400);
    // The panel got the same expiry.
    const auto panel_user = http_url("GET", "http://127.0.0.1:" + env("PANEL_PORT") + "/api/users/by-telegram-id/" + std::to_string(tg)).json();
    BOOST_TEST(std::string(panel_user["response"][0]["expireAt"].GetString()).substr(0, 19) ==
               cabinet::iso8601_utc(after).substr(0, 19));
}

// The owner's block (a `disabled` subscription, mirrored from the panel) stays: a free
// grant would enable the panel user and restart the days from now.
BOOST_AUTO_TEST_CASE(days_and_subscription_rewards_leave_a_disabled_subscription_alone) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string sub = " FROM subscriptions s JOIN users u ON u.id = s.user_id" + user_where(tg);
    exec("UPDATE subscriptions s SET status = 'disabled' FROM users u WHERE u.id = s.user_id AND u.telegram_id = " +
         std::to_string(tg));
    const auto expiry = count("SELECT extract(epoch FROM s.expire_at)::bigint" + sub);
    const auto revision = count("SELECT s.revision" + sub);
    for (const std::string& code :
         {new_code("days", 10), new_code("subscription", 30, ", plan_id", ", (SELECT id FROM plans WHERE public_code = 'family')")}) {
        const auto r = activate(auth, code).json();
        BOOST_TEST(r["ok"].GetBool() == false);
        BOOST_TEST(std::string(r["message"].GetString()).find("disabled") != std::string::npos);
        BOOST_TEST(count("SELECT count(*) FROM promo_activations a JOIN users u ON u.id = a.user_id" + user_where(tg)) == 0);
    }
    BOOST_TEST(count("SELECT extract(epoch FROM s.expire_at)::bigint" + sub) == expiry);
    BOOST_TEST(count("SELECT s.revision" + sub) == revision);
    BOOST_TEST(count("SELECT count(*)" + sub + " AND s.status = 'disabled'") == 1);
}

BOOST_AUTO_TEST_CASE(subscription_reward_grants_the_plan) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const std::string code = new_code("subscription", 30, ", plan_id", ", (SELECT id FROM plans WHERE public_code = 'family')");
    const auto r = activate(auth, code).json();
    BOOST_REQUIRE(r["ok"].GetBool());
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(std::string(me["subscription"]["plan_name"].GetString()) == "Family");
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "active");
    BOOST_TEST(me["subscription"]["device_limit"].GetInt() == 6);
}

BOOST_AUTO_TEST_CASE(discount_reward_is_an_offer_for_the_next_purchase) {
    const int64_t tg = fresh_telegram_id();
    const auto r = activate(tma_header(tg), new_code("discount", 25)).json();
    BOOST_TEST(r["ok"].GetBool());
    BOOST_TEST(count("SELECT promo_discount_pct FROM users" + user_where(tg)) == 25);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE promo_discount_until > now() + interval '29 days' AND telegram_id = " +
                     std::to_string(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(one_use_code_raced_by_fifty_users_has_one_winner) {
    const std::string code = new_code("balance", 700, ", max_uses", ", 1");
    constexpr int kUsers = 50;
    std::vector<std::string> auths;
    for (int i = 0; i < kUsers; ++i) auths.push_back(tma_header(fresh_telegram_id()));
    std::vector<int> won(kUsers);
    std::vector<std::thread> threads;
    for (int i = 0; i < kUsers; ++i)
        threads.emplace_back([&, i] {
            const auto r = activate(auths[i], code);
            won[i] = r.status == 200 && r.json()["ok"].GetBool() ? 1 : 0;
        });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(won.begin(), won.end(), 1) == 1);
    BOOST_TEST(count("SELECT uses FROM promo_codes WHERE code = '" + code + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM promo_activations a JOIN promo_codes p ON p.id = a.promo_code_id WHERE p.code = '" +
                     code + "'") == 1);
}

// An unlimited code (a broadcast "enter SUMMER") is not locked through a grant's panel
// call: one slow activation does not hold up every other customer's, each holding a pool
// thread meanwhile.
BOOST_AUTO_TEST_CASE(an_unlimited_code_does_not_queue_its_activations_behind_a_slow_one) {
    const std::string code = new_code("days", 3);
    std::vector<std::string> auths;
    for (int i = 0; i < 2; ++i) {
        auths.push_back(tma_header(fresh_telegram_id()));
        BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auths[i]}).status == 200);
    }
    const std::string mock = "http://127.0.0.1:" + env("PANEL_PORT");
    BOOST_REQUIRE(http_url("POST", mock + "/__mock/fault", {"Content-Type: application/json"},
                           R"({"mode":"delay","delay_ms":2000,"times":1})")
                      .status == 200);
    HttpResult first;
    std::thread slow([&] { first = activate(auths[0], code); });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the first is in its panel call now
    const auto t0 = std::chrono::steady_clock::now();
    const auto second = activate(auths[1], code);
    const auto waited = std::chrono::steady_clock::now() - t0;
    slow.join();
    http_url("POST", mock + "/__mock/reset-faults");
    BOOST_TEST(first.json()["ok"].GetBool(), first.body);
    BOOST_TEST(second.json()["ok"].GetBool(), second.body);
    // With the code locked it waited out the first's remaining 1.5 s.
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(waited).count() < 1000);
    BOOST_TEST(count("SELECT uses FROM promo_codes WHERE code = '" + code + "'") == 2);
}

BOOST_AUTO_TEST_CASE(panel_down_during_a_days_reward_changes_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const std::string code = new_code("days", 5);
    stack_svc("stop", "mock-panel");
    const auto r = activate(auth, code);
    stack_svc("start", "mock-panel");
    BOOST_TEST(r.status == 502);
    BOOST_TEST(count("SELECT uses FROM promo_codes WHERE code = '" + code + "'") == 0);
    BOOST_TEST(activate(auth, code).json()["ok"].GetBool());  // still usable afterwards
}

BOOST_AUTO_TEST_SUITE_END()
