#include "money_support.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <latch>
#include <thread>

#include "panel/panel_client.hpp"

namespace it::money {
namespace {

std::atomic<int> promo_serial{0};

}  // namespace

cabinet::PanelClient panel() {
    return cabinet::PanelClient("http://127.0.0.1:" + env("PANEL_PORT"), "test", 2000, 10000);
}

Shopper new_shopper(const std::string& start_param) {
    Shopper s;
    s.tg = fresh_telegram_id();
    s.auth = tma_header(s.tg, "Shopper", start_param);
    const auto me = http("GET", "/api/cabinet/me", {s.auth});
    BOOST_REQUIRE_MESSAGE(me.status == 200, me.body);
    const auto j = me.json();
    s.id = j["user"]["id"].GetInt64();
    s.referral_code = j["user"]["referral_code"].GetString();
    return s;
}

Shopper subscribed_shopper(int64_t balance, int64_t expire_at) {
    Shopper s = new_shopper();
    set_balance(s.tg, balance + kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(s), 200);
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::work txn(conn);
    const auto r = txn.exec_params1(
        "SELECT panel_uuid::text, traffic_limit_bytes, device_limit FROM subscriptions WHERE user_id = $1", s.id);
    BOOST_REQUIRE(panel().update_user(r[0].c_str(), {expire_at, r[1].as<int64_t>(), r[2].as<int64_t>(), true}));
    txn.exec_params0("UPDATE subscriptions SET expire_at = to_timestamp($2) WHERE user_id = $1", s.id, expire_at);
    txn.commit();
    return s;
}

Books books(const Shopper& s) {
    Books b;
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    const auto r = txn.exec_params1(
        "SELECT floor(extract(epoch FROM s.expire_at))::bigint, s.panel_uuid::text, u.balance_minor,"
        " (SELECT coalesce(sum(delta_minor), 0) FROM balance_ledger WHERE user_id = u.id),"
        " (SELECT count(*) FROM balance_ledger WHERE user_id = u.id),"
        " (SELECT count(*) FROM transactions WHERE user_id = u.id AND type = 'subscription_payment' AND status = 'completed'),"
        " (SELECT coalesce(max(id), 0) FROM subscription_history WHERE user_id = u.id)"
        " FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE u.id = $1",
        s.id);
    b.expire_at = r[0].is_null() ? 0 : r[0].as<int64_t>();
    b.balance = r[2].as<int64_t>();
    b.ledger_sum = r[3].as<int64_t>();
    b.ledger_rows = r[4].as<int64_t>();
    b.paid_transactions = r[5].as<int64_t>();
    b.history_id = r[6].as<int64_t>();
    if (!r[1].is_null()) {
        const auto pu = panel().get_user(r[1].c_str());
        BOOST_REQUIRE(pu);
        b.panel_expire_at = pu->expire_at;
    }
    return b;
}

std::string history_break(const Shopper& s, int64_t after_id, int64_t start) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    int64_t previous = start;
    for (const auto& r : txn.exec_params(
             "SELECT id, source, coalesce(floor(extract(epoch FROM expire_before))::bigint, -1),"
             " floor(extract(epoch FROM expire_after))::bigint FROM subscription_history"
             " WHERE user_id = $1 AND id > $2 ORDER BY id",
             s.id, after_id)) {
        if (r[2].as<int64_t>() != previous)
            return "history row " + std::string(r[0].c_str()) + " (" + r[1].c_str() + ") starts at " + r[2].c_str() +
                   " but the previous grant ended at " + str(previous);
        previous = r[3].as<int64_t>();
    }
    return {};
}

long renew(const Shopper& s) {
    return http("POST", "/api/cabinet/purchase", {s.auth, "Content-Type: application/json"},
                R"({"plan_id":"standard","days":30,"method":"balance"})")
        .status;
}

std::string new_days_promo(int days) {
    const std::string code = "RACE" + str(fresh_telegram_id()) + "X" + str(++promo_serial);
    exec("INSERT INTO promo_codes (code, reward_type, value, max_uses) VALUES ('" + code + "', 'days', " + str(days) + ", 1)");
    return code;
}

bool activate(const Shopper& s, const std::string& code) {
    const auto r = http("POST", "/api/cabinet/promocode", {s.auth, "Content-Type: application/json"},
                        R"({"code":")" + code + "\"}");
    return r.status == 200 && r.json()["ok"].GetBool();
}

long reset_link(const Shopper& s) { return http("POST", "/api/cabinet/subscription/reset-devices", {s.auth}).status; }

int64_t open_stars_invoice(const Shopper& s) {
    const auto r = http("POST", "/api/cabinet/purchase", {s.auth, "Content-Type: application/json"},
                        R"({"plan_id":"standard","days":30,"method":"stars"})");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json()["transaction_id"].GetInt64();
}

long pay_stars_invoice(const Shopper& s, int64_t tx) {
    const int64_t stars = count("SELECT (pricing->>'stars')::bigint FROM transactions WHERE id = " + str(tx));
    return bot_update(R"({"update_id":)" + str(tx) + R"(,"message":{"message_id":1,"chat":{"id":)" + str(s.tg) +
                      R"(},"successful_payment":{"currency":"XTR","total_amount":)" + str(stars) +
                      R"(,"invoice_payload":")" + str(tx) + R"(","telegram_payment_charge_id":"race_)" + str(tx) + "\"}}}")
        .status;
}

int run_autopay_scan() { return run(ctl("autopay")).first; }
int run_panel_sync(const Shopper& s) { return run(ctl("sync-panel --user-id " + str(s.id))).first; }

bool jobs_done(const std::string& key, const std::string& value, int timeout_ms) {
    return wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE status <> 'done' AND payload->>'" + key + "' = '" + value + "'") == 0;
    }, timeout_ms);
}

int64_t autopay_renewals(const Shopper& s) {
    return count("SELECT count(*) FROM transactions WHERE user_id = " + str(s.id) +
                 " AND description = 'autopay' AND status = 'completed'");
}

bool stars_fulfilled(int64_t tx) {
    return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + str(tx)) == 1;
}

bool bonus_granted(const Shopper& referral) {
    return count("SELECT count(*) FROM jobs WHERE kind = 'referral_bonus' AND status = 'done' AND payload->>'referral_id' = '" +
                 str(referral.id) + "'") == 1;
}

void slow_panel(int delay_ms, int times, const std::string& method) {
    const std::string only = method.empty() ? "" : R"(,"method":")" + method + "\"";
    const auto r = http_url("POST", mock_panel_url("/__mock/fault"), {"Content-Type: application/json"},
                            R"({"mode":"delay","delay_ms":)" + str(delay_ms) + R"(,"times":)" + str(times) + only + "}");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
}

void panel_refuses_next(const std::string& method) {
    const auto r = http_url("POST", mock_panel_url("/__mock/fault"), {"Content-Type: application/json"},
                            R"({"mode":"status500","times":1,"method":")" + method + "\"}");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
}

void panel_normal() { http_url("POST", mock_panel_url("/__mock/reset-faults")); }

void run_together(const std::vector<std::function<void()>>& tasks) {
    std::latch start(static_cast<std::ptrdiff_t>(tasks.size()));
    std::vector<std::thread> threads;
    threads.reserve(tasks.size());
    for (const auto& task : tasks)
        threads.emplace_back([&start, &task] {
            start.arrive_and_wait();
            task();
        });
    for (auto& t : threads) t.join();
}

std::pair<int, std::string> check_ledger(const std::string& flags) { return run(ctl("check-ledger " + flags)); }

}  // namespace it::money
