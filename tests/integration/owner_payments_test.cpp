// The owner's payments (issue 48; api/admin_payments.cpp, services/payment_admin.cpp): the
// list's totals are exactly what the filter holds; a refund goes through the provider
// first (YooKassa's refund API, Telegram's refundStarPayment; a balance purchase back to the
// balance), takes back what the payment bought once, is audited on the customer's card and
// in the payment's history; owners refunding one payment at once refund it once (the sums
// are checked); a refund the provider refuses changes nothing.
#include <boost/test/unit_test.hpp>

#include <array>
#include <future>
#include <sstream>

#include "catalog_support.hpp"
#include "money_support.hpp"
#include "staff_calls.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

HttpResult refund(int64_t tx, const std::string& key = new_key(), const std::string& reason = "asked for it") {
    return owner("POST", "/api/admin/payments/" + std::to_string(tx) + "/refund", R"({"reason": ")" + reason + R"("})", key);
}

int64_t bought(const Shopper& s, const std::string& method) {
    const auto r = buy_standard(s.auth, method);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json()["transaction_id"].GetInt64();
}

bool completed(int64_t tx) {
    return wait_until([&] { return transaction_status(tx) == "completed"; }, 20000);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(owner_payments)

BOOST_AUTO_TEST_CASE(the_list_and_its_totals_are_what_the_filter_holds) {
    const Shopper s = new_shopper();
    const std::string method = "it" + std::to_string(s.tg % 1000000);
    for (const auto& [amount, status] : std::vector<std::pair<int64_t, std::string>>{
             {1000, "completed"}, {2500, "completed"}, {700, "failed"}, {99, "completed"}})
        exec("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method) VALUES (" + str(s.id) +
             ", 'deposit', '" + status + "', " + str(amount) + ", 'RUB', '" + method + "')");
    const auto all = owner("GET", "/api/admin/payments?method=" + method).json();
    BOOST_TEST(all["items"].Size() == 4u);
    BOOST_TEST(all["totals"]["count"].GetInt64() == 4);
    BOOST_TEST(all["totals"]["amounts"][0]["amount_minor"].GetInt64() == 4299);
    const auto done = owner("GET", "/api/admin/payments?status=completed&method=" + method).json();
    BOOST_TEST(done["totals"]["count"].GetInt64() == 3);
    BOOST_TEST(done["totals"]["amounts"][0]["amount_minor"].GetInt64() == 3599);
    BOOST_TEST(done["items"][0]["customer"]["id"].GetInt64() == s.id);
    // Paged: two pages of two, the totals the same on each.
    const auto p1 = owner("GET", "/api/admin/payments?limit=2&method=" + method).json();
    const std::string cursor = p1["next_cursor"].GetString();
    const auto p2 = owner("GET", "/api/admin/payments?limit=2&cursor=" + cursor + "&method=" + method).json();
    BOOST_TEST(p2["items"].Size() == 2u);
    BOOST_TEST(p2["items"][0]["id"].GetInt64() < p1["items"][1]["id"].GetInt64());
    BOOST_TEST(p2["totals"]["count"].GetInt64() == 4);
    // Today only, then a range that ended before today.
    const std::string today = shop_today();
    BOOST_TEST(owner("GET", "/api/admin/payments?from=" + today + "&to=" + today + "&method=" + method).json()["totals"]["count"].GetInt64() == 4);
    BOOST_TEST(owner("GET", "/api/admin/payments?to=2020-01-01&method=" + method).json()["totals"]["count"].GetInt64() == 0);
    BOOST_TEST(owner("GET", "/api/admin/payments?customer=" + str(s.id) + "&method=" + method).json()["items"].Size() == 4u);
    // The export is the same rows.
    const auto csv = owner("GET", "/api/admin/payments/export?method=" + method);
    BOOST_REQUIRE(csv.status == 200);
    BOOST_TEST(csv.headers.at("content-type").rfind("text/csv", 0) == 0);
    std::istringstream lines(csv.body);
    std::string line;
    int rows = -1;  // the header
    while (std::getline(lines, line)) rows += line.empty() ? 0 : 1;
    BOOST_TEST(rows == 4);
    // Bad filters are named.
    BOOST_TEST(owner("GET", "/api/admin/payments?status=lost").status == 400);
    BOOST_TEST(owner("GET", "/api/admin/payments?from=monday").status == 400);
    BOOST_TEST(owner("GET", "/api/admin/payments/99999999").status == 404);
    BOOST_TEST(http("GET", "/api/admin/payments", {viewer_auth()}).status == 200);
    BOOST_TEST(http("GET", "/api/admin/payments", {support_auth()}).status == 403);
}

// The totals come from an hourly rollup the triggers keep (sql 0053) plus the part-hours at
// the filter's ends: in a zone half an hour off UTC, a payment at 23:50 and one at 00:10
// local fall on either side of midnight; a status changed and a payment deleted move the
// figures; compaction changes nothing; and the rollup equals transactions key for key.
BOOST_AUTO_TEST_CASE(totals_are_exact_for_the_shops_days_in_any_zone) {
    struct Zone {
        Zone() { BOOST_REQUIRE(owner("PUT", "/api/admin/settings/SHOP_TIMEZONE", R"({"value":"Asia/Kolkata"})").status == 200); }
        ~Zone() { owner("DELETE", "/api/admin/settings/SHOP_TIMEZONE"); }
    } kolkata;  // UTC+05:30: 10 March begins at 9 March 18:30 UTC
    const Shopper s = new_shopper();
    const std::string method = "tz" + std::to_string(s.tg % 1000000);
    const auto pay = [&](const std::string& at_utc, int64_t amount, const std::string& status,
                         const std::string& currency = "RUB") {
        return count("INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, created_at) VALUES (" +
                     str(s.id) + ", 'deposit', '" + status + "', " + str(amount) + ", '" + currency + "', '" + method +
                     "', '" + at_utc + "+00') RETURNING id");
    };
    pay("2026-03-09 18:20", 100, "completed");       // 9 March, 23:50 local
    pay("2026-03-09 18:40", 200, "completed");       // 10 March, 00:10
    const int64_t later = pay("2026-03-10 12:00", 400, "pending");
    pay("2026-03-10 18:29", 800, "completed");       // 10 March, 23:59
    pay("2026-03-10 18:31", 1600, "completed");      // 11 March, 00:01
    const int64_t gone = pay("2026-03-10 13:00", 3200, "completed");
    pay("2026-03-10 14:00", 50, "completed", "USD");
    exec("UPDATE transactions SET status = 'completed' WHERE id = " + str(later));
    exec("DELETE FROM transactions WHERE id = " + str(gone));

    // {count, RUB, USD} of a filter.
    const auto totals = [&](const std::string& query) {
        const rapidjson::Document d = owner("GET", "/api/admin/payments?method=" + method + "&" + query).json();
        std::array<int64_t, 3> out{d["totals"]["count"].GetInt64(), 0, 0};
        for (const auto& a : d["totals"]["amounts"].GetArray())
            out[str(a["currency"]) == "USD" ? 2 : 1] = a["amount_minor"].GetInt64();
        return out;
    };
    using T = std::array<int64_t, 3>;
    const auto check_all = [&] {
        BOOST_TEST((totals("from=2026-03-10&to=2026-03-10") == T{4, 1400, 50}));
        BOOST_TEST((totals("from=2026-03-10&to=2026-03-10&status=completed") == T{4, 1400, 50}));
        BOOST_TEST((totals("from=2026-03-10&to=2026-03-10&status=pending") == T{0, 0, 0}));
        BOOST_TEST((totals("from=2026-03-10") == T{5, 3000, 50}));
        BOOST_TEST((totals("to=2026-03-09") == T{1, 100, 0}));
        BOOST_TEST((totals("from=2026-03-11&to=2026-03-11&type=deposit") == T{1, 1600, 0}));
        BOOST_TEST((totals("") == T{6, 3100, 50}));
    };
    // The pool takes the new zone from the change listener: a moment after the PUT.
    BOOST_REQUIRE(wait_until([&] { return totals("to=2026-03-09") == T{1, 100, 0}; }, 5000));
    check_all();
    exec("SELECT overview_compact()");
    check_all();
    // Key for key, the rollup is what transactions hold, after everything the suite did.
    BOOST_TEST(count("SELECT count(*) FROM ((SELECT payment_hour(created_at), status, method, type, currency,"
                     " count(*), sum(amount_minor) FROM transactions GROUP BY 1, 2, 3, 4, 5)"
                     " EXCEPT (SELECT hour, status, method, type, currency, sum(n), sum(amount_minor) FROM payment_totals"
                     " GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(amount_minor) <> 0)) missing") == 0);
    BOOST_TEST(count("SELECT count(*) FROM ((SELECT hour, status, method, type, currency, sum(n), sum(amount_minor)"
                     " FROM payment_totals GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(amount_minor) <> 0)"
                     " EXCEPT (SELECT payment_hour(created_at), status, method, type, currency,"
                     " count(*), sum(amount_minor) FROM transactions GROUP BY 1, 2, 3, 4, 5)) extra") == 0);
    // A date that does not exist is refused, not a database error.
    BOOST_TEST(owner("GET", "/api/admin/payments?from=2026-02-30").status == 400);
}

// A balance purchase given back: the price to the balance, the days off both sides.
BOOST_AUTO_TEST_CASE(a_balance_purchase_refund_gives_the_money_back_and_takes_the_days) {
    const Shopper s = new_shopper();
    set_balance(s.tg, kStandardPrice);
    const Books before = books(s);
    const int64_t tx = bought(s, "balance");
    const Books paid = books(s);
    BOOST_REQUIRE(paid.balance == before.balance - kStandardPrice);
    BOOST_TEST(owner("GET", "/api/admin/payments/" + str(tx)).json()["refunded_by"].IsNull());

    const std::string key = new_key();
    const auto r = refund(tx, key, "double charge");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(std::string(r.json()["payment"]["status"].GetString()) == "refunded");
    // Who and why, on the payment itself.
    BOOST_TEST(str(r.json()["refunded_by"]["actor"]) == "telegram:" + str(kAdminTelegramId));
    BOOST_TEST(str(r.json()["refunded_by"]["reason"]) == "double charge");
    const Books after = books(s);
    BOOST_TEST(after.balance == before.balance);
    BOOST_TEST(after.ledger_sum == after.balance);
    BOOST_TEST(after.ledger_rows == paid.ledger_rows + 1);
    BOOST_TEST(after.expire_at <= cabinet::unix_now() + 60);  // the 30 days are gone
    BOOST_TEST(panel().users_by_telegram_id(s.tg).at(0).status == "DISABLED");  // the panel takes no past expiry
    // The same key again: the same answer; another key: 409, nothing moves.
    const auto again = refund(tx, key, "double charge");
    BOOST_TEST(again.status == 200);
    BOOST_TEST(again.body == r.body);
    BOOST_TEST(refund(tx).status == 409);
    BOOST_TEST(books(s).balance == after.balance);
    // The card shows it: the payment refunded, the ledger row with the reason, the audit entry.
    const auto card = owner("GET", "/api/admin/customers/" + str(s.id)).json();
    BOOST_TEST(std::string(card["payments"][0]["status"].GetString()) == "refunded");
    BOOST_TEST(std::string(card["ledger"][0]["note"].GetString()) == "double charge");
    BOOST_TEST(std::string(card["audit"][0]["action"].GetString()) == "payment.refund");
    const auto detail = owner("GET", "/api/admin/payments/" + str(tx)).json();
    BOOST_TEST(!detail["refundable"].GetBool());
    BOOST_TEST(std::string(detail["events"][0]["outcome"].GetString()) == "refund: taken back");
}

// Four owners press "refund" on one payment at once, each with a key of their own: it is
// refunded once — one ledger row, one audit entry, the price back once.
BOOST_AUTO_TEST_CASE(owners_refunding_one_payment_at_once_refund_it_once) {
    const Shopper s = new_shopper();
    set_balance(s.tg, kStandardPrice);
    const Books before = books(s);
    const int64_t tx = bought(s, "balance");
    const Books paid = books(s);
    std::vector<std::future<HttpResult>> calls;
    for (int i = 0; i < 4; ++i) calls.push_back(std::async(std::launch::async, [tx] { return refund(tx); }));
    int ok = 0, conflict = 0;
    for (auto& c : calls) {
        const auto r = c.get();
        ok += r.status == 200;
        conflict += r.status == 409;
    }
    BOOST_TEST(ok == 1);
    BOOST_TEST(conflict == 3);
    const Books after = books(s);
    BOOST_TEST(after.balance == before.balance);
    BOOST_TEST(after.ledger_rows == paid.ledger_rows + 1);
    BOOST_TEST(audit_rows("action = 'payment.refund' AND payload->>'transaction_id' = '" + str(tx) + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM payment_events WHERE transaction_id = " + str(tx) +
                     " AND outcome = 'refund: taken back'") == 1);
}

// YooKassa: its refund API first, then the days; YooKassa's own refund notification, when
// it arrives, is a replay. A payment YooKassa will not refund changes nothing here.
BOOST_AUTO_TEST_CASE(a_yookassa_payment_is_refunded_through_yookassa) {
    const Shopper s = new_shopper();
    const int64_t tx = bought(s, "yookassa");
    const std::string payment = [&] {
        pqxx::connection c(env("DATABASE_URL"));
        return std::string(pqxx::nontransaction(c).exec1("SELECT provider_payment_id FROM transactions WHERE id = " + str(tx))[0].c_str());
    }();
    // Not paid yet: nothing to refund.
    BOOST_TEST(refund(tx).status == 409);
    const auto hook = http_url("POST", fake_url("/__fake/yookassa/payments/" + payment), {kJsonContentType}, R"({"status":"succeeded"})");
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    hook.json()["notification"].Accept(w);
    BOOST_REQUIRE(http("POST", "/api/v1/payments/yookassa", {kJsonContentType}, buf.GetString()).status == 200);
    BOOST_REQUIRE(completed(tx));
    BOOST_TEST(days_left(s.tg) == 30);

    // YooKassa refuses once (its 400): 409 with its words, nothing changed.
    http_url("POST", fake_url("/__fake/fail"), {kJsonContentType},
             R"({"service":"yookassa","count":1,"status":400,"body":{"type":"error","code":"invalid_request","description":"Refund is not possible now"}})");
    const auto refused = refund(tx);
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_TEST(refused.status == 409, refused.body);
    BOOST_TEST(detail(refused).find("YooKassa") != std::string::npos, detail(refused));
    BOOST_TEST(transaction_status(tx) == "completed");
    BOOST_TEST(days_left(s.tg) == 30);

    const int64_t mark = journal_mark();
    const auto r = refund(tx);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(transaction_status(tx) == "refunded");
    BOOST_TEST(days_left(s.tg) == 0);
    const auto fake = http_url("GET", fake_url("/__fake/yookassa/payments/" + payment)).json();
    BOOST_TEST(std::string(fake["refunded_amount"]["value"].GetString()) == "299.00");
    (void)mark;
    // YooKassa's refund.succeeded notification comes later: a replay.
    const auto note = http_url("POST", fake_url("/__fake/yookassa/payments/" + payment), {kJsonContentType}, R"({"status":"succeeded"})");
    rapidjson::StringBuffer nb;
    rapidjson::Writer<rapidjson::StringBuffer> nw(nb);
    note.json()["notification"].Accept(nw);
    BOOST_TEST(http("POST", "/api/v1/payments/yookassa", {kJsonContentType}, nb.GetString()).status == 200);
    BOOST_TEST(transaction_status(tx) == "refunded");
    BOOST_TEST(count("SELECT count(*) FROM payment_events WHERE transaction_id = " + str(tx) + " AND outcome LIKE 'refund: replay'") == 1);
}

// Stars: Telegram's refundStarPayment with the charge, then the days.
BOOST_AUTO_TEST_CASE(a_stars_payment_is_refunded_through_telegram) {
    const Shopper s = new_shopper();
    const int64_t tx = open_stars_invoice(s);
    BOOST_REQUIRE(pay_stars_invoice(s, tx) == 200);
    BOOST_REQUIRE(completed(tx));
    const int64_t mark = journal_mark();
    const auto r = refund(tx);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto calls = bot_api_calls("refundStarPayment", mark);
    BOOST_REQUIRE(calls.Size() == 1u);
    BOOST_TEST(std::string(calls[0]["json"]["telegram_payment_charge_id"].GetString()) == "race_" + str(tx));
    BOOST_TEST(calls[0]["json"]["user_id"].GetInt64() == s.tg);
    BOOST_TEST(transaction_status(tx) == "refunded");
    BOOST_TEST(days_left(s.tg) == 0);
    BOOST_TEST(refund(tx).status == 409);
    BOOST_TEST(bot_api_calls("refundStarPayment", mark).Size() == 1u);  // not asked twice
}

BOOST_AUTO_TEST_CASE(a_refund_needs_a_key_and_a_reason_and_the_owner) {
    const Shopper s = new_shopper();
    set_balance(s.tg, kStandardPrice);
    const int64_t tx = bought(s, "balance");
    BOOST_TEST(owner("POST", "/api/admin/payments/" + str(tx) + "/refund", R"({"reason": "x"})").status == 400);
    BOOST_TEST(refund(tx, new_key(), "").status == 422);
    BOOST_TEST(http("POST", "/api/admin/payments/" + str(tx) + "/refund",
                    {tma_header(100000003, "Viewer"), kJsonContentType, "Idempotency-Key: v1"}, R"({"reason": "x"})").status == 403);
    BOOST_TEST(refund(99999999).status == 404);
    BOOST_TEST(transaction_status(tx) == "completed");
}

// The Overview says what the money check (cabinetctl check-ledger) found on its last run.
BOOST_AUTO_TEST_CASE(the_overview_shows_the_money_checks_last_verdict) {
    const auto [rc, out] = run(ctl("check-ledger"));
    const rapidjson::Document overview = owner("GET", "/api/admin/overview").json();  // outlives `ledger` (ASan)
    const auto ledger = overview["ledger"].GetObject();
    BOOST_REQUIRE(ledger["checked_at"].IsString());
    const auto at = cabinet::parse_iso8601(ledger["checked_at"].GetString());
    BOOST_REQUIRE(at);
    BOOST_TEST(*at >= cabinet::unix_now() - 120);
    if (rc == 0) {
        BOOST_TEST(ledger["problems"].GetInt64() == 0);
        BOOST_TEST(ledger["first_problem"].IsNull());
    } else {  // another suite left a broken account on purpose: the count is the command's
        BOOST_TEST(out.find(std::to_string(ledger["problems"].GetInt64()) + " ledger problem(s)") != std::string::npos, out);
        BOOST_TEST(out.find(ledger["first_problem"].GetString()) != std::string::npos);
    }
}

BOOST_AUTO_TEST_SUITE_END()
