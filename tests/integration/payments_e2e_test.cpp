// Online payments end to end through nginx with the fakes: purchase -> provider page ->
// webhook -> worker -> GET /me; a gateway outage charges nothing; autopay renews from the
// balance once.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "jobs/job_queue.hpp"
#include "money_support.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

// A customer who bought 30 days from a balance of `balance`, with autopay on and
// `left` (an SQL interval) before the expiry.
void autopay_customer(int64_t tg, int64_t balance, const std::string& left) {
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, balance);
    BOOST_REQUIRE(buy_standard(auth, "balance").status == 200);
    exec("UPDATE subscriptions SET autopay_enabled = true, expire_at = now() + interval '" + left + "' WHERE user_id = " +
         uid_of(tg));
}

std::string fulfil_jobs_of(int64_t tx) {
    return "FROM jobs WHERE kind = 'fulfil_payment' AND payload->>'transaction_id' = '" + std::to_string(tx) + "'";
}

// A worker that only beats (no job threads), once a second, for about three seconds.
void heartbeats_of_a_worker() {
    const auto [rc, out] = run("timeout -s TERM 3 env " + ctl("worker --concurrency 0 --heartbeat-every 1"));
    BOOST_REQUIRE_MESSAGE(rc == 124, out);  // stopped by the timeout, not by a failure
}

}  // namespace

BOOST_AUTO_TEST_SUITE(payments_e2e)

BOOST_AUTO_TEST_CASE(yookassa_purchase_webhook_worker_me) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = buy_standard(auth, "yookassa");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(std::string(r.json()["redirect_url"].GetString()).rfind("http", 0) == 0u);
    const int64_t tx = r.json()["transaction_id"].GetInt64();
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"].IsNull());  // not before the money

    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    const std::string payment_id = q.exec_params("SELECT provider_payment_id FROM transactions WHERE id = $1", tx)[0][0].c_str();
    const auto hook = http_url("POST", fake_url("/__fake/yookassa/payments/" + payment_id), {"Content-Type: application/json"},
                               R"({"status":"succeeded"})");
    BOOST_REQUIRE(hook.status == 200);
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    hook.json()["notification"].Accept(w);
    const auto wh = http("POST", "/api/v1/payments/yookassa", {"Content-Type: application/json"}, buf.GetString());
    BOOST_TEST(wh.status == 200);
    BOOST_TEST(wh.json()["accepted"].GetBool());

    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + std::to_string(tx)) == 1;
    }, 20000));
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(std::string(me["subscription"]["plan_name"].GetString()) == "Standard");
    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_TEST(std::string(pay["items"][0]["method"].GetString()) == "yookassa");
    BOOST_TEST(std::string(pay["items"][0]["status"].GetString()) == "completed");
}

BOOST_AUTO_TEST_CASE(cryptobot_purchase_webhook_worker_me) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = buy_standard(auth, "cryptobot");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(std::string(r.json()["redirect_url"].GetString()).rfind("http", 0) == 0u);
    const int64_t tx = r.json()["transaction_id"].GetInt64();
    const std::string invoice = [&] {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::nontransaction q(conn);
        return std::string(q.exec_params("SELECT provider_payment_id FROM transactions WHERE id = $1", tx)[0][0].c_str());
    }();
    const auto hook = http_url("POST", fake_url("/__fake/cryptobot/invoices/" + invoice + "/paid"), {"Content-Type: application/json"}, "{}");
    BOOST_REQUIRE(hook.status == 200);
    const auto signed_update = hook.json();
    const std::string body = signed_update["body"].GetString();
    const std::string signature = signed_update["signature"].GetString();
    // A forged signature first: refused, nothing paid.
    BOOST_TEST(http("POST", "/api/v1/payments/cryptobot", {"Content-Type: application/json",
                    "crypto-pay-api-signature: " + std::string(64, '0')}, body).status == 403);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE paid_at IS NOT NULL AND id = " + std::to_string(tx)) == 0);
    const auto wh = http("POST", "/api/v1/payments/cryptobot", {"Content-Type: application/json",
                         "crypto-pay-api-signature: " + signature}, body);
    BOOST_TEST(wh.status == 200);
    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + std::to_string(tx)) == 1;
    }, 20000));
    BOOST_TEST(std::string(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["plan_name"].GetString()) == "Standard");
}

BOOST_AUTO_TEST_CASE(gateway_down_at_purchase_leaves_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/fail"), {"Content-Type: application/json"},
                           R"({"service":"yookassa","count":1,"status":500})").status == 200);
    const auto r = buy_standard(auth, "yookassa");
    BOOST_TEST(r.status == 502);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 0);
    http_url("DELETE", fake_url("/__fake/fail"));
}

// The provider is asked with no lock held (services/online_checkout.hpp): while YooKassa takes
// 3 s over one buyer's checkout, the same buyer's balance purchase is answered at once, and
// afterwards both are what they should be: one subscription paid from the balance, one
// payment page, the balance down by one price.
BOOST_AUTO_TEST_CASE(a_slow_gateway_does_not_hold_up_the_buyers_next_purchase) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 100000);
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/slow"), {"Content-Type: application/json"},
                           R"({"service":"yookassa","count":1,"delay_ms":3000})").status == 200);
    std::atomic<bool> online_done{false};
    HttpResult online;
    std::thread checkout([&] {
        online = buy_standard(auth, "yookassa");
        online_done = true;
    });
    // The checkout has reserved its payment and is waiting on the provider.
    const bool reserved = wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'pending' AND user_id = " + uid_of(tg)) == 1;
    }, 2500);
    const auto paid = buy_standard(auth, "balance");
    const bool online_was_waiting = !online_done;
    checkout.join();
    http_url("DELETE", fake_url("/__fake/fail"));

    BOOST_REQUIRE(reserved);
    BOOST_TEST(paid.status == 200, paid.body);
    BOOST_TEST(online_was_waiting);  // answered while the provider still had the other
    BOOST_TEST(online.status == 200, online.body);
    BOOST_TEST(std::string(online.json()["redirect_url"].GetString()).rfind("http", 0) == 0u);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 100000 - 29900);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'pending' AND provider_payment_id IS NOT NULL"
                     " AND user_id = " + uid_of(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(autopay_renews_from_the_balance_once) {
    const int64_t tg = fresh_telegram_id();
    autopay_customer(tg, 100000, "2 hours");
    const int64_t before = count("SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);  // a second scan queues nothing new
    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND user_id = " + uid_of(tg)) == 2;
    }, 20000));
    const int64_t after = count("SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    BOOST_TEST(after - before == 30 * 86400);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 100000 - 2 * 29900);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) + "::text") == 1);
}

// A short balance changes nothing; the scan after a top-up renews (the first job's key does
// not block the second).
BOOST_AUTO_TEST_CASE(autopay_with_a_short_balance_changes_nothing_until_a_top_up) {
    const int64_t tg = fresh_telegram_id();
    autopay_customer(tg, 29900, "1 hour");  // balance now 0
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE kind = 'autopay_renew' AND status = 'done' AND payload->>'user_id' = " +
                     uid_of(tg) + "::text") == 1;
    }, 20000));
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);

    const int64_t expiry = count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    set_balance(tg, 29900);  // the top-up
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE kind = 'autopay_renew' AND status = 'done' AND payload->>'user_id' = " +
                     uid_of(tg) + "::text") == 2;
    }, 20000));
    // Whole seconds: the renewal writes the expiry the pool computed, without the fraction.
    BOOST_TEST(std::llabs(count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " +
                                uid_of(tg)) - (expiry + 30 * 86400)) <= 1);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 2);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);  // renewed: not due, nothing queued
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) +
                     "::text") == 2);
}

// Autopay never renews a blocked account (it cannot see or stop it: every request is 403)
// nor lifts the owner's block on the panel, also when its job was queued before either; nor
// anything once the shop has switched the balance off.
BOOST_AUTO_TEST_CASE(autopay_leaves_a_blocked_account_and_a_disabled_subscription_alone) {
    const int64_t tg = fresh_telegram_id();
    autopay_customer(tg, 100000, "2 hours");
    const std::string jobs_of_user = "FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) + "::text";
    const std::string balance = "SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg);
    const std::string user = " WHERE telegram_id = " + std::to_string(tg);

    exec("UPDATE users SET is_blocked = true" + user);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_TEST(count("SELECT count(*) " + jobs_of_user) == 0);

    // A job queued earlier runs after each change.
    int64_t done = 0;
    const auto run_job = [&] {
        const auto [rc, out] = run(ctl("jobs enqueue autopay_renew '{\"user_id\":" + std::to_string(count("SELECT id FROM users" + user)) + "}'"));
        BOOST_REQUIRE_MESSAGE(rc == 0, out);
        ++done;
        BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == done; }, 20000));
    };
    run_job();  // blocked
    exec("UPDATE users SET is_blocked = false" + user);
    exec("UPDATE subscriptions SET status = 'disabled' WHERE user_id = " + uid_of(tg));
    run_job();  // the owner's block on the panel
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE status = 'disabled' AND user_id = " + uid_of(tg)) == 1);
    exec("UPDATE subscriptions SET status = 'active' WHERE user_id = " + uid_of(tg));
    {
        struct BalanceOff {
            BalanceOff() { BOOST_REQUIRE(run(ctl("settings set BALANCE_ENABLED false")).first == 0); }
            ~BalanceOff() { run(ctl("settings unset BALANCE_ENABLED")); }
        } off;
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // live in the worker "within a second"
        run_job();  // the shop switched the balance off
    }
    BOOST_TEST(count(balance) == 100000 - 29900);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE user_id = " + uid_of(tg)) == 1);
}

// The balance switched off between the scan and the job: the job renews nothing, scans while
// it is off queue nothing, and the scan after it is back on renews that same expiry once.
BOOST_AUTO_TEST_CASE(autopay_resumes_when_the_balance_is_switched_on_again) {
    const int64_t tg = fresh_telegram_id();
    autopay_customer(tg, 100000, "2 hours");
    const std::string jobs_of_user = "FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) + "::text";
    const std::string expiry = "SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + uid_of(tg);
    const int64_t before = count(expiry);
    stack_svc("stop", "worker");
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    {
        struct BalanceOff {
            BalanceOff() { BOOST_REQUIRE(run(ctl("settings set BALANCE_ENABLED false")).first == 0); }
            ~BalanceOff() { run(ctl("settings unset BALANCE_ENABLED")); }
        } off;
        stack_svc("start", "worker");
        BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == 1; }, 20000));
        const auto [rc, out] = run(ctl("autopay"));
        BOOST_TEST(out.find("queued 0 autopay renewals") != std::string::npos, out);  // nobody's, while off
    }
    BOOST_TEST(count(expiry) == before);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // the balance back on in the worker "within a second"
    // (Other tests' customers may be due too: this one's jobs are counted.)
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_TEST(count("SELECT count(*) " + jobs_of_user) == 2);
    BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == 2; }, 20000));
    BOOST_TEST(count(expiry) - before == 30 * 86400);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 100000 - 2 * 29900);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_TEST(count("SELECT count(*) " + jobs_of_user) == 2);  // renewed: not due again
}

// A job renews only the expiry the scan queued it for. Two jobs can be queued for one
// expiry (a top-up between two scans makes a new key); on a 1-day plan, once the first has
// renewed after the expiry passed (both held up: a panel outage, a stopped worker), the new
// expiry is within the last day again, and the second renewed a second time.
BOOST_AUTO_TEST_CASE(autopay_renews_each_expiry_once_even_on_a_one_day_plan) {
    const std::string plan = "daily" + std::to_string(fresh_telegram_id());
    exec("INSERT INTO plans (public_code, name) VALUES ('" + plan + "', 'Daily')");
    exec("INSERT INTO plan_durations (plan_id, days, price_minor) SELECT id, 1, 1000 FROM plans WHERE public_code = '" + plan + "'");
    struct PlanGone {
        std::string code;
        ~PlanGone() { exec("DELETE FROM plans WHERE public_code = '" + code + "'"); }
    } gone{plan};
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 10000);
    const auto bought = http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"},
                             R"({"plan_id":")" + plan + R"(","days":1,"method":"balance"})");
    BOOST_REQUIRE_MESSAGE(bought.status == 200, bought.body);
    const std::string u = uid_of(tg);
    const std::string jobs_of_user = "FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + u + "::text";
    const std::string expiry = "SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + u;
    const std::string renewals = "SELECT count(*) FROM transactions WHERE status = 'completed' AND type = 'subscription_payment'"
                                 " AND user_id = " + u;
    stack_svc("stop", "worker");
    exec("UPDATE subscriptions SET autopay_enabled = true, expire_at = now() + interval '3 seconds' WHERE user_id = " + u);
    const int64_t before = count(expiry);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    set_balance(tg, 10001);  // a top-up between two scans
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_REQUIRE_EQUAL(count("SELECT count(*) " + jobs_of_user + " AND (payload->>'expire_at')::bigint = " +
                              std::to_string(before)), 2);
    std::this_thread::sleep_for(std::chrono::seconds(4));  // both wait past the expiry
    stack_svc("start", "worker");
    BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == 2; }, 20000));
    BOOST_TEST(count(renewals) == 2);  // the purchase and one renewal
    const int64_t moved = count(expiry) - before;
    BOOST_TEST(moved >= 86400);
    BOOST_TEST(moved < 86400 + 60);
    // One charge after the top-up: the renewal's price.
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + u) ==
               10001 - count("SELECT amount_minor FROM transactions WHERE user_id = " + u +
                             " AND type = 'subscription_payment' ORDER BY id DESC LIMIT 1"));
}

// An autopay renewal outlives a panel outage: its job retries for hours, not minutes, and
// one that dies anyway does not hold its key, so the scan after the outage renews.
BOOST_AUTO_TEST_CASE(autopay_after_a_panel_outage_renews_at_the_next_scan) {
    const int64_t tg = fresh_telegram_id();
    autopay_customer(tg, 29900 * 2, "3 hours");
    const int64_t expiry = count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    const std::string jobs_of_user = "FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) + "::text";

    const std::string mock = "http://127.0.0.1:" + env("PANEL_PORT");
    BOOST_REQUIRE(http_url("POST", mock + "/__mock/fault", {"Content-Type: application/json"},
                           R"({"mode":"status500","times":100000})").status == 200);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    const bool failed_once = wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'pending' AND attempts = 1") == 1; }, 20000);
    const int64_t budget = count("SELECT max_attempts " + jobs_of_user);
    // The outage outlasts the budget (here cut to two attempts): the job dies.
    exec("UPDATE jobs SET max_attempts = 2, run_at = now() WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) +
         "::text; NOTIFY cabinet_jobs");
    const bool died = wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'dead'") == 1; }, 20000);
    http_url("POST", mock + "/__mock/reset-faults");
    BOOST_REQUIRE(failed_once);
    BOOST_TEST(budget == cabinet::jobs::kMoneyJobAttempts);
    BOOST_REQUIRE(died);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 29900);  // nothing charged

    // The panel is back: the next scan queues the renewal again, and it renews once.
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == 1; }, 20000));
    BOOST_TEST(std::llabs(count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg)) -
                          (expiry + 30 * 86400)) <= 1);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND user_id = " + uid_of(tg)) == 2);
    BOOST_REQUIRE(run(ctl("autopay")).first == 0);  // renewed: nothing more
    BOOST_TEST(count("SELECT count(*) " + jobs_of_user) == 2);
}

// In constructor mode autopay renews the period and traffic pack of the last purchase; it
// used to look for a plan only and renew nothing.
BOOST_AUTO_TEST_CASE(autopay_renews_a_constructor_purchase) {
    struct ConstructorMode {
        ConstructorMode() { BOOST_REQUIRE(run(ctl("settings set SALES_MODE constructor")).first == 0); }
        ~ConstructorMode() { run(ctl("settings unset SALES_MODE")); }
    } mode;
    std::this_thread::sleep_for(std::chrono::seconds(1));  // the worker's copy of the settings, too
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    const ConstructorChoice choice = first_constructor_choice(auth);
    set_balance(tg, choice.price_minor * 2);
    const auto r = http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"}, choice.purchase_body());
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    exec("UPDATE subscriptions SET autopay_enabled = true, expire_at = now() + interval '3 hours' WHERE user_id = " + uid_of(tg));
    const int64_t expiry = count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));

    BOOST_REQUIRE(run(ctl("autopay")).first == 0);
    const std::string jobs_of_user = "FROM jobs WHERE kind = 'autopay_renew' AND payload->>'user_id' = " + uid_of(tg) + "::text";
    BOOST_REQUIRE(wait_until([&] { return count("SELECT count(*) " + jobs_of_user + " AND status = 'done'") == 1; }, 20000));
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 0);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND type = 'subscription_payment' AND user_id = " + uid_of(tg)) == 2);
    BOOST_TEST(std::llabs(count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg)) -
                          (expiry + choice.days * 86400)) <= 1);
}

// A panel outage longer than a fulfilment's nine hours of attempts does not leave a paid
// order behind: an hour after its job died the worker queues it again (and the operator's
// `jobs requeue-paid` at once), and each order is granted exactly once.
BOOST_AUTO_TEST_CASE(a_paid_order_whose_fulfilment_died_is_queued_again) {
    using namespace it::money;
    const Shopper a = new_shopper(), b = new_shopper();
    const int64_t tx_a = open_stars_invoice(a), tx_b = open_stars_invoice(b);
    const std::string mock = "http://127.0.0.1:" + env("PANEL_PORT");
    BOOST_REQUIRE(http_url("POST", mock + "/__mock/fault", {"Content-Type: application/json"},
                           R"({"mode":"status500","times":100000})").status == 200);
    BOOST_REQUIRE(pay_stars_invoice(a, tx_a) == 200);
    BOOST_REQUIRE(pay_stars_invoice(b, tx_b) == 200);
    const std::string both = "payload->>'transaction_id' IN ('" + std::to_string(tx_a) + "', '" + std::to_string(tx_b) + "')";
    const bool failed = wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND attempts >= 1 AND " + both) == 2;
    }, 20000);
    // The outage outlasts the budget (here cut to two attempts): both jobs die.
    exec("UPDATE jobs SET max_attempts = 2, run_at = now() WHERE kind = 'fulfil_payment' AND " + both + "; NOTIFY cabinet_jobs");
    const bool died = wait_until([&] {
        return count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND status = 'dead' AND " + both) == 2;
    }, 20000);
    panel_normal();
    BOOST_REQUIRE(failed);
    BOOST_REQUIRE(died);
    BOOST_TEST(books(a).paid_transactions == 0);

    // Died just now: the worker's heartbeats leave both alone for an hour.
    heartbeats_of_a_worker();
    BOOST_TEST(count("SELECT count(*) " + fulfil_jobs_of(tx_a)) == 1);
    BOOST_TEST(count("SELECT count(*) " + fulfil_jobs_of(tx_b)) == 1);

    // An hour after A's job died, a heartbeat queues A again; B's hour has not passed.
    exec("UPDATE jobs SET finished_at = now() - interval '61 minutes' WHERE kind = 'fulfil_payment' AND payload->>'transaction_id' = '" +
         std::to_string(tx_a) + "'");
    heartbeats_of_a_worker();
    BOOST_TEST(count("SELECT count(*) " + fulfil_jobs_of(tx_a)) == 2);
    BOOST_TEST(count("SELECT count(*) " + fulfil_jobs_of(tx_b)) == 1);
    BOOST_REQUIRE(wait_until([&] { return stars_fulfilled(tx_a); }, 20000));

    // The operator need not wait: B now, and nothing for an order already fulfilled.
    const auto [rc, out] = run(ctl("jobs requeue-paid"));
    BOOST_TEST(rc == 0);
    BOOST_TEST(out.find("queued 1 paid orders") != std::string::npos, out);
    BOOST_REQUIRE(wait_until([&] { return stars_fulfilled(tx_b); }, 20000));
    BOOST_TEST(run(ctl("jobs requeue-paid")).second.find("queued 0 paid orders") != std::string::npos);

    // Each bought 30 days once, on both sides.
    for (const Shopper* s : {&a, &b}) {
        const Books after = books(*s);
        BOOST_TEST(after.paid_transactions == 1);
        BOOST_TEST(std::llabs(after.expire_at - (cabinet::unix_now() + 30 * kDay)) <= 120);
        BOOST_TEST(after.panel_expire_at == after.expire_at);
    }
}

// A referral bonus whose job dies in an outage is granted later, once: the worker queues
// it again an hour after it died, as it does a paid order.
BOOST_AUTO_TEST_CASE(a_referral_bonus_whose_job_died_is_queued_again) {
    using namespace it::money;
    const Shopper referrer = subscribed_shopper(0, cabinet::unix_now() + 10 * kDay);
    const int64_t before = books(referrer).expire_at;

    // The referral's purchase queues the bonus while no worker runs; the panel then fails
    // every attempt (here one) and the job dies.
    stack_svc("stop", "worker");
    const Shopper referral = new_shopper("ref_" + referrer.referral_code);
    set_balance(referral.tg, kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(referral), 200);
    const std::string bonus_jobs =
        "SELECT count(*) FROM jobs WHERE kind = 'referral_bonus' AND payload->>'referral_id' = '" + std::to_string(referral.id) + "'";
    BOOST_REQUIRE(count(bonus_jobs) == 1);
    exec("UPDATE jobs SET max_attempts = 1 WHERE kind = 'referral_bonus' AND payload->>'referral_id' = '" +
         std::to_string(referral.id) + "'");
    const std::string mock = "http://127.0.0.1:" + env("PANEL_PORT");
    BOOST_REQUIRE(http_url("POST", mock + "/__mock/fault", {"Content-Type: application/json"},
                           R"({"mode":"status500","times":100000})").status == 200);
    stack_svc("start", "worker");
    const bool died = wait_until([&] { return count(bonus_jobs + " AND status = 'dead'") == 1; }, 20000);
    panel_normal();
    BOOST_REQUIRE(died);
    BOOST_TEST(books(referrer).expire_at == before);

    // Died just now: the heartbeats leave it for an hour. Then one queues it again.
    heartbeats_of_a_worker();
    BOOST_TEST(count(bonus_jobs) == 1);
    exec("UPDATE jobs SET finished_at = now() - interval '61 minutes' WHERE kind = 'referral_bonus' AND payload->>'referral_id' = '" +
         std::to_string(referral.id) + "'");
    heartbeats_of_a_worker();
    BOOST_TEST(count(bonus_jobs) == 2);
    BOOST_REQUIRE(wait_until([&] { return bonus_granted(referral); }, 20000));

    // REFERRAL_BONUS_DAYS (7) once, on both sides; nothing more to queue.
    const Books after = books(referrer);
    BOOST_TEST(after.expire_at - before == 7 * kDay);
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    const auto [rc, out] = run(ctl("jobs requeue-paid"));
    BOOST_TEST(rc == 0);
    BOOST_TEST(out.find("and 0 referral bonuses") != std::string::npos, out);
    BOOST_TEST(count(bonus_jobs) == 2);

    // Left alone: a dead bonus of a referrer whose account is gone (merged away), which
    // has nothing to extend, and an operator's hand-made one without a referral (no key
    // to hold it once: it would be queued at every beat).
    const std::string orphan = std::to_string(referral.id + 1000000000);
    struct Remove {
        ~Remove() { exec("DELETE FROM jobs WHERE kind = 'referral_bonus' AND payload->>'test' = 'left alone'"); }
    } remove;
    exec("INSERT INTO jobs (kind, payload, status, attempts, max_attempts, finished_at) VALUES"
         " ('referral_bonus', jsonb_build_object('referrer_id', 9000000000000000, 'referral_id', " + orphan +
         ", 'test', 'left alone'), 'dead', 20, 20, now() - interval '2 hours'),"
         " ('referral_bonus', jsonb_build_object('referrer_id', " + std::to_string(referrer.id) +
         ", 'test', 'left alone'), 'dead', 20, 20, now() - interval '2 hours')");
    const auto [rc2, out2] = run("timeout 20 env " + ctl("jobs requeue-paid"));
    BOOST_TEST(rc2 == 0);
    BOOST_TEST(out2.find("and 0 referral bonuses") != std::string::npos, out2);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'referral_bonus' AND payload->>'test' = 'left alone'") == 2);
    BOOST_TEST(books(referrer).expire_at == after.expire_at);
}

BOOST_AUTO_TEST_SUITE_END()
