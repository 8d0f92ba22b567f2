// The database-level guards of issue 12 and the operator's tools around them: a balance
// cannot change without its ledger row, `cabinetctl check-ledger` finds a ledger that no
// longer explains a balance and alerts the admins, and `cabinetctl repair-days` finds and
// repairs subscriptions that lost paid days to the pre-fix renewal race.
#include <boost/test/unit_test.hpp>

#include "money_support.hpp"
#include "panel/panel_client.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

BOOST_AUTO_TEST_SUITE(ledger)

BOOST_AUTO_TEST_CASE(a_balance_change_without_its_ledger_row_is_refused) {
    const Shopper s = new_shopper();
    set_balance(s.tg, 5000);
    bool refused = false;
    try {
        exec("UPDATE users SET balance_minor = balance_minor + 100 WHERE id = " + str(s.id));
    } catch (const std::exception& e) {
        refused = std::string(e.what()).find("ledger") != std::string::npos;
    }
    BOOST_TEST(refused);
    BOOST_TEST(books(s).balance == 5000);
    // The operator's way works, and is recorded.
    BOOST_TEST(run(ctl("user set-balance --telegram-id " + str(s.tg) + " --value 7000")).first == 0);
    const Books b = books(s);
    BOOST_TEST(b.balance == 7000);
    BOOST_TEST(b.ledger_sum == 7000);
    BOOST_TEST(count("SELECT count(*) FROM balance_ledger WHERE reason = 'admin' AND user_id = " + str(s.id)) == 2);
}

// ledger_move's own update skips the commit-time check (sql 0031): a change by hand right
// after one, in the same transaction and on the same user, must still be caught.
BOOST_AUTO_TEST_CASE(a_balance_change_after_a_ledger_move_in_the_same_transaction_is_refused) {
    const Shopper s = new_shopper();
    set_balance(s.tg, 5000);
    bool refused = false;
    try {
        exec("SELECT ledger_move(" + str(s.id) + ", 100, 'admin'); UPDATE users SET balance_minor = balance_minor + 1 WHERE id = " +
             str(s.id));
    } catch (const std::exception& e) {
        refused = std::string(e.what()).find("ledger") != std::string::npos;
    }
    BOOST_TEST(refused);
    const Books b = books(s);
    BOOST_TEST(b.balance == 5000);
    BOOST_TEST(b.ledger_sum == 5000);
    // ledger_move alone, twice in one transaction, commits.
    exec("SELECT ledger_move(" + str(s.id) + ", 100, 'admin'); SELECT ledger_move(" + str(s.id) + ", -40, 'admin')");
    BOOST_TEST(books(s).balance == 5060);
    BOOST_TEST(books(s).ledger_sum == 5060);
}

BOOST_AUTO_TEST_CASE(every_money_path_writes_its_ledger_row) {
    const Shopper referrer = new_shopper();
    const Shopper s = new_shopper("ref_" + referrer.referral_code);
    set_balance(s.tg, 2 * kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(s), 200);
    BOOST_REQUIRE(activate(s, [] {
        const std::string code = "LEDGERBAL" + std::to_string(fresh_telegram_id());
        exec("INSERT INTO promo_codes (code, reward_type, value) VALUES ('" + code + "', 'balance', 1234)");
        return code;
    }()));
    const auto reasons = [](int64_t user) {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::nontransaction txn(conn);
        std::string out;
        for (const auto& r : txn.exec_params("SELECT reason || ':' || delta_minor || ':' || (transaction_id IS NOT NULL)"
                                             " FROM balance_ledger WHERE user_id = $1 ORDER BY id", user))
            out += std::string(r[0].c_str()) + " ";
        return out;
    };
    BOOST_TEST(reasons(s.id) == "admin:59800:false purchase:-29900:true promo:1234:true ");
    BOOST_TEST(reasons(referrer.id) == "referral_commission:2990:true ");
    const auto [rc, out] = check_ledger();
    BOOST_TEST(rc == 0, out);
}

BOOST_AUTO_TEST_CASE(check_ledger_finds_a_broken_ledger_and_alerts) {
    const Shopper s = new_shopper();
    set_balance(s.tg, 9000);
    BOOST_REQUIRE_EQUAL(check_ledger().first, 0);
    // Someone deletes the ledger row by hand: the balance is no longer explained.
    const int64_t row = count("SELECT max(id) FROM balance_ledger WHERE user_id = " + str(s.id));
    exec("DELETE FROM balance_ledger WHERE id = " + str(row));
    const int64_t mark = journal_mark();
    const auto [rc, out] = check_ledger("--alert");
    BOOST_TEST(rc == 1);
    BOOST_TEST(out.find("user " + str(s.id) + " (telegram " + str(s.tg) + "): balance 9000 but the ledger sums to 0") !=
                   std::string::npos,
               out);
    BOOST_TEST(wait_until([&] {
        for (const auto& text : bot_messages_since(mark, env("REPORT_CHAT_ID"), std::stoll(env("REPORT_TOPIC_ALERTS"))))
            if (text.find("Ledger check found") != std::string::npos && text.find("user " + str(s.id)) != std::string::npos)
                return true;
        return false;
    }, 20000));
    // Put the row back, as it was: the books are whole again.
    exec("INSERT INTO balance_ledger (id, user_id, delta_minor, balance_after, reason) VALUES (" + str(row) + ", " +
         str(s.id) + ", 9000, 9000, 'admin')");
    BOOST_TEST(check_ledger().first == 0);
}

// An account as the old race left it: three paid renewals, the expiry moved by one.
BOOST_AUTO_TEST_CASE(repair_days_finds_and_restores_lost_paid_days) {
    const Shopper s = new_shopper();
    set_balance(s.tg, 3 * kStandardPrice);
    for (int i = 0; i < 3; ++i) BOOST_REQUIRE_EQUAL(renew(s), 200);
    // Three purchases of 30 days in a row: 90 days. Take 60 of them away on both sides, as
    // the race did when three renewals read the same expiry.
    const Books whole = books(s);
    const int64_t hurt = whole.expire_at - 60 * kDay;
    {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::work txn(conn);
        const auto r = txn.exec_params1("SELECT panel_uuid::text, traffic_limit_bytes, device_limit FROM subscriptions WHERE user_id = $1", s.id);
        cabinet::PanelClient panel("http://127.0.0.1:" + env("PANEL_PORT"), "test", 2000, 10000);
        BOOST_REQUIRE(panel.update_user(r[0].c_str(), {hurt, r[1].as<int64_t>(), r[2].as<int64_t>(), true}));
        txn.exec_params0("UPDATE subscriptions SET expire_at = to_timestamp($2) WHERE user_id = $1", s.id, hurt);
        txn.commit();
    }
    // A payment for days that arrived after its discount ended went to the balance instead
    // (complete_payment_as_credit): it is no paid grant, and must not be "repaired" into one.
    exec("WITH t AS (INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider,"
         " plan_snapshot, paid_at, completed_at, failure_reason) VALUES (" + str(s.id) + ", 'subscription_payment',"
         " 'completed', 29900, 'RUB', 'stars', 'stars', '{\"name\":\"Standard\",\"days\":30}', now(), now(),"
         " 'paid after its discount ended: the amount went to the balance') RETURNING id)"
         " SELECT ledger_move(" + str(s.id) + ", 29900, 'deposit', t.id) FROM t");
    const std::string one = " --telegram-id " + str(s.tg);
    const auto report = run(ctl("repair-days" + one));
    BOOST_TEST(report.first == 0);
    BOOST_TEST(report.second.find("3 paid purchase(s)") != std::string::npos, report.second);
    BOOST_TEST(report.second.find("60 day(s) missing") != std::string::npos, report.second);
    BOOST_TEST(books(s).expire_at == hurt);  // a report changes nothing

    const auto applied = run(ctl("repair-days --apply" + one));
    BOOST_TEST(applied.first == 0);
    BOOST_TEST(applied.second.find("repaired") != std::string::npos, applied.second);
    const Books repaired = books(s);
    BOOST_TEST(repaired.expire_at == whole.expire_at);
    BOOST_TEST(repaired.panel_expire_at == repaired.expire_at);
    BOOST_TEST(count("SELECT count(*) FROM events WHERE kind = 'days_repaired' AND (payload->>'days')::int = 60 AND user_id = " +
                     str(s.id)) == 1);
    // Nothing more to do on a second run.
    const auto again = run(ctl("repair-days --apply" + one));
    BOOST_TEST(again.second.find("day(s) missing") == std::string::npos, again.second);
    BOOST_TEST(books(s).expire_at == whole.expire_at);
}

// The lists of statuses, types and reasons are checked through domains since sql 0045
// (docs/decisions.md "The status lists as domains"): a value outside a list is still
// refused as a check violation and changes nothing, and values from the lists are still
// accepted.
BOOST_AUTO_TEST_CASE(a_status_type_or_reason_outside_its_list_is_refused) {
    const Shopper s = subscribed_shopper(50000, cabinet::unix_now() + 10 * kDay);
    const std::string user = str(s.id);
    const std::string tx = "(SELECT max(id) FROM transactions WHERE user_id = " + user + ")";
    const Books before = books(s);
    // Each write with a value outside its list, and the count of rows holding that value.
    const std::vector<std::pair<std::string, std::string>> writes = {
        {"UPDATE subscriptions SET status = 'paused' WHERE user_id = " + user,
         "SELECT count(*) FROM subscriptions WHERE status = 'paused'"},
        {"UPDATE transactions SET type = 'tip' WHERE id = " + tx, "SELECT count(*) FROM transactions WHERE type = 'tip'"},
        {"UPDATE transactions SET status = 'done' WHERE id = " + tx,
         "SELECT count(*) FROM transactions WHERE status = 'done'"},
        {"SELECT ledger_move(" + user + ", 100, 'gift')", "SELECT count(*) FROM balance_ledger WHERE reason = 'gift'"},
        {"INSERT INTO jobs (kind, status) VALUES ('test_kind', 'waiting')",
         "SELECT count(*) FROM jobs WHERE status = 'waiting'"},
    };
    for (const auto& [write, holders] : writes) {
        bool refused = false;
        try {
            exec(write);
        } catch (const pqxx::check_violation&) {
            refused = true;
        }
        BOOST_TEST(refused, write);
        BOOST_TEST(count(holders) == 0, holders);
    }
    const Books after = books(s);
    BOOST_TEST(after.balance == before.balance);
    BOOST_TEST(after.ledger_rows == before.ledger_rows);
    BOOST_TEST(after.expire_at == before.expire_at);

    // Known values pass: the same statements with a value from each list.
    exec("UPDATE subscriptions SET status = 'limited' WHERE user_id = " + user +
         "; UPDATE subscriptions SET status = 'active' WHERE user_id = " + user);
    exec("UPDATE transactions SET type = 'subscription_payment', status = 'completed' WHERE id = " + tx);
    exec("SELECT ledger_move(" + user + ", 100, 'admin')");
    BOOST_TEST(books(s).balance == before.balance + 100);
    BOOST_TEST(books(s).ledger_sum == before.balance + 100);
}

BOOST_AUTO_TEST_SUITE_END()
