// The money services called directly, with PostgreSQL alone: no nginx, no pool, no Redis and
// no panel (its address answers nothing), each thread with its own Db as a pool thread has.
// What these pin down is the services' own contract (issue 50, "services testable without the
// HTTP stack"): parallel callers move money once, and an upstream that fails charges nothing
// and leaves nothing behind. The same journeys through HTTP are money_race_test.cpp's.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
#include "errors.hpp"
#include "panel/panel_client.hpp"
#include "services/online_checkout.hpp"
#include "services/order.hpp"
#include "services/payment_confirmation.hpp"
#include "services/promo_activation.hpp"
#include "services/purchase.hpp"
#include "support.hpp"

using namespace it;

namespace {

// The stack's settings, with every upstream pointed at a port where nothing listens.
cabinet::Settings offline_settings() {
    cabinet::Settings s = cabinet::load_settings_from_environment();
    s.sales_mode = "plans";
    s.yookassa_api_base = "http://127.0.0.1:1/yookassa/v3";
    return s;
}

cabinet::Db connect(const cabinet::Settings& s) { return {s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms}; }

cabinet::PanelClient no_panel() { return {"http://127.0.0.1:1", "token", 300, 300}; }

// A web-only account (no Telegram id) with `balance` on it, written as cabinetctl would.
int64_t new_account(int64_t balance) {
    const int64_t id = count("INSERT INTO users (referral_code) VALUES ('svc' || md5(random()::text)) RETURNING id");
    if (balance > 0) exec("SELECT ledger_set_balance(" + str(id) + ", " + str(balance) + ")");
    return id;
}

int64_t balance(int64_t user_id) { return count("SELECT balance_minor FROM users WHERE id = " + str(user_id)); }
int64_t ledger_rows(int64_t user_id) { return count("SELECT count(*) FROM balance_ledger WHERE user_id = " + str(user_id)); }
int64_t transactions(int64_t user_id) { return count("SELECT count(*) FROM transactions WHERE user_id = " + str(user_id)); }

cabinet::OrderChoice standard_30_days() {
    cabinet::OrderChoice c;
    c.plan_code = "standard";
    c.days = 30;
    return c;
}

cabinet::PurchaseRequest buy_standard(int64_t user, const std::string& method) {
    cabinet::PurchaseRequest req;
    req.user_id = user;
    req.choice = standard_30_days();
    req.method = method;
    return req;
}

// `n` threads, each with its own connection, start `body(i, db)` together.
template <typename Body>
void in_parallel(int n, const cabinet::Settings& s, Body body) {
    std::atomic<int> ready{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < n; ++i)
        threads.emplace_back([&, i] {
            cabinet::Db db = connect(s);
            db.conn();  // connected before the start line, so the calls meet in PostgreSQL
            ++ready;
            while (ready.load() < n) std::this_thread::yield();
            body(i, db);
        });
    for (auto& t : threads) t.join();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(money_services)

BOOST_AUTO_TEST_CASE(parallel_activations_of_a_one_use_balance_code_credit_it_once) {
    const auto s = offline_settings();
    const std::string code = "SVC" + str(fresh_telegram_id());
    exec("INSERT INTO promo_codes (code, reward_type, value, max_uses) VALUES ('" + code + "', 'balance', 5000, 1)");
    constexpr int kUsers = 8;
    std::vector<int64_t> users;
    for (int i = 0; i < kUsers; ++i) users.push_back(new_account(0));

    std::atomic<int> granted{0}, refused{0};
    in_parallel(kUsers, s, [&](int i, cabinet::Db& db) {
        auto panel = no_panel();
        const auto outcome = cabinet::activate_promo_code(db, panel, s, users[i], code);
        ++(outcome.ok ? granted : refused);
    });

    BOOST_TEST(granted.load() == 1);
    BOOST_TEST(refused.load() == kUsers - 1);
    int64_t credited = 0, rows = 0;
    for (int64_t u : users) {
        credited += balance(u);
        rows += ledger_rows(u);
        BOOST_TEST(balance(u) == count("SELECT coalesce(sum(delta_minor), 0) FROM balance_ledger WHERE user_id = " + str(u)));
    }
    BOOST_TEST(credited == 5000);  // the code's value, once
    BOOST_TEST(rows == 1);
    BOOST_TEST(count("SELECT uses FROM promo_codes WHERE code = '" + code + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM promo_activations a JOIN promo_codes p ON p.id = a.promo_code_id WHERE p.code = '" +
                     code + "'") == 1);
}

BOOST_AUTO_TEST_CASE(balance_purchases_while_the_panel_is_down_charge_nothing) {
    const auto s = offline_settings();
    const int64_t user = new_account(100'000);
    const int64_t rows_before = ledger_rows(user);
    cabinet::CatalogCache catalog(1000);

    std::atomic<int> bad_gateway{0}, other{0};
    in_parallel(4, s, [&](int, cabinet::Db& db) {
        auto panel = no_panel();
        const cabinet::PurchaseDeps deps{db, panel, s, catalog, nullptr};
        try {
            cabinet::purchase(deps, buy_standard(user, "balance"));
            ++other;
        } catch (const cabinet::ApiError& e) {
            ++(e.status() == 502 ? bad_gateway : other);
        }
    });

    BOOST_TEST(bad_gateway.load() == 4);
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(balance(user) == 100'000);
    BOOST_TEST(ledger_rows(user) == rows_before);
    BOOST_TEST(transactions(user) == 0);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE user_id = " + str(user)) == 0);
}

BOOST_AUTO_TEST_CASE(a_gateway_that_cannot_be_reached_leaves_no_pending_payment) {
    const auto s = offline_settings();
    BOOST_REQUIRE(s.yookassa_enabled);
    const int64_t user = new_account(0);
    cabinet::CatalogCache catalog(1000);
    cabinet::Db db = connect(s);
    auto panel = no_panel();
    const cabinet::PurchaseDeps deps{db, panel, s, catalog, nullptr};
    const cabinet::PurchaseRequest req = buy_standard(user, "yookassa");

    for (int attempt = 0; attempt < 2; ++attempt) {  // the second finds nothing left by the first
        BOOST_CHECK_EXCEPTION(cabinet::purchase(deps, req), cabinet::ApiError,
                              [](const cabinet::ApiError& e) { return e.status() == 502; });
        BOOST_TEST(transactions(user) == 0);
    }
    BOOST_TEST(balance(user) == 0);
}

BOOST_AUTO_TEST_CASE(parallel_replays_of_one_paid_notification_queue_one_fulfilment) {
    const auto s = offline_settings();
    const int64_t user = new_account(0);
    cabinet::Db db = connect(s);
    // Step 1 of a checkout (services/online_checkout.hpp), then the page the gateway gave.
    const cabinet::PaymentReservation r = db.transact([&](pqxx::work& txn) {
        const auto locked = cabinet::lock_account(txn, user);
        const auto order = cabinet::resolve_order(txn, s, locked, standard_30_days());
        return cabinet::reserve_payment(txn, s, locked, order, "yookassa", "", "");
    });
    const std::string provider_id = "svc-" + str(r.transaction_id);
    exec("UPDATE transactions SET provider = 'yookassa', provider_payment_id = '" + provider_id + "' WHERE id = " +
         str(r.transaction_id));
    const int64_t amount = count("SELECT amount_minor FROM transactions WHERE id = " + str(r.transaction_id));
    BOOST_REQUIRE(amount > 0);

    constexpr int kReplays = 6;
    std::atomic<int> accepted{0}, replays{0}, other{0};
    in_parallel(kReplays, s, [&](int, cabinet::Db& mine) {
        const auto c = mine.write([&](pqxx::work& txn) {
            return cabinet::confirm_payment(txn, r.transaction_id, "yookassa", provider_id, amount, "RUB");
        });
        ++(c == cabinet::Confirmation::accepted ? accepted : c == cabinet::Confirmation::already_paid ? replays : other);
    });

    BOOST_TEST(accepted.load() == 1);
    BOOST_TEST(replays.load() == kReplays - 1);
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE dedupe_key = 'fulfil:" + str(r.transaction_id) + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM payment_events WHERE transaction_id = " + str(r.transaction_id)) == kReplays);
    BOOST_TEST(balance(user) == 0);  // paid for days, not credited: nothing reached the balance
}

BOOST_AUTO_TEST_SUITE_END()
