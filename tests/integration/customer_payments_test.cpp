// A customer's own hold on their payments and renewals (issue 49): an open payment shows
// when it ends and can be canceled from the list; autopay is a switch that says what it
// will charge and when. Each through nginx, with the server's state checked.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>

#include "money_support.hpp"
#include "util/time.hpp"
#include "support.hpp"

using namespace it;

namespace {

HttpResult cancel(const std::string& auth, const std::string& id) {
    return http("POST", "/api/cabinet/payments/" + id + "/cancel", {auth});
}

// The customer's row for `txn` in GET /payments ("" values when it is not listed).
struct Listed {
    std::string status, expires_at;
};
Listed listed(const std::string& auth, int64_t txn) {
    const auto r = http("GET", "/api/cabinet/payments", {auth});
    const rapidjson::Document doc = r.json();
    for (const auto& p : doc["items"].GetArray())
        if (p["id"].GetInt64() == txn) return {str(p["status"]), p.HasMember("expires_at") ? str(p["expires_at"]) : ""};
    return {};
}

HttpResult put_autopay(const std::string& auth, const std::string& body) {
    return http("PUT", "/api/cabinet/subscription/autopay", {auth, kJsonContentType}, body);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(customer_payments)

// An open payment is listed with its end; its buyer cancels it once (eight taps at once
// cancel it once), nobody else can, and a payment that is paid or over cannot be.
BOOST_AUTO_TEST_CASE(an_open_payment_shows_its_end_and_its_buyer_cancels_it_once) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = buy_standard(auth, "yookassa");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const int64_t txn = r.json()["transaction_id"].GetInt64();
    const std::string id = str(txn);
    const Listed open = listed(auth, txn);
    BOOST_TEST(open.status == "pending");
    const int64_t expires = count("SELECT floor(extract(epoch FROM expires_at))::bigint FROM transactions WHERE id = " + id);
    BOOST_TEST(open.expires_at == cabinet::iso8601_utc(expires));

    // Hostile input changes nothing.
    BOOST_TEST(cancel(auth, "abc").status == 404);
    BOOST_TEST(cancel(auth, "0").status == 404);
    BOOST_TEST(cancel(auth, "99999999999").status == 404);
    BOOST_TEST(cancel(tma_header(fresh_telegram_id()), id).status == 404);  // not theirs
    BOOST_TEST(http("POST", "/api/cabinet/payments/" + id + "/cancel").status == 401);
    BOOST_TEST(transaction_status(txn) == "pending");

    std::atomic<int> ok{0}, refused{0};
    std::vector<std::thread> taps;
    for (int i = 0; i < 8; ++i)
        taps.emplace_back([&] {
            const auto c = cancel(auth, id);
            if (c.status == 200) ++ok;
            else if (c.status == 409 && detail(c) == "this payment is no longer open") ++refused;
        });
    for (auto& t : taps) t.join();
    BOOST_TEST(ok.load() == 1);
    BOOST_TEST(refused.load() == 7);
    // The reason's stable name comes with the English detail (errors.hpp), for programs and
    // for the pages, which say it in the customer's language.
    const auto again = cancel(auth, id);
    BOOST_TEST(str(again.json()["code"]) == "payment_not_open");
    BOOST_TEST(str(cancel(auth, "abc").json()["code"]) == "payment_not_found");
    BOOST_TEST(str(http("POST", "/api/cabinet/payments/" + id + "/cancel").json()["code"]) == "unauthorized");
    BOOST_TEST(transaction_status(txn) == "canceled");
    BOOST_TEST(count("SELECT count(*) FROM payment_events WHERE transaction_id = " + id + " AND outcome = 'canceled by the buyer'") == 1);
    const Listed after = listed(auth, txn);
    BOOST_TEST(after.status == "canceled");
    BOOST_TEST(after.expires_at == "");  // only an open payment has an end to show

    // A payment paid from the balance is not open.
    set_balance(tg, 29900);
    const auto paid = buy_standard(auth, "balance");
    BOOST_REQUIRE(paid.status == 200);
    const auto c = cancel(auth, str(paid.json()["transaction_id"].GetInt64()));
    BOOST_TEST(c.status == 409);
    BOOST_TEST(detail(c) == "this payment is paid already");
}

// Canceled here, paid at YooKassa anyway (its page cannot be withdrawn): the money is not
// lost, the notification credits it as a late payment and the days are granted once.
BOOST_AUTO_TEST_CASE(a_canceled_payment_paid_anyway_is_still_credited) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = buy_standard(auth, "yookassa");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const int64_t txn = r.json()["transaction_id"].GetInt64();
    BOOST_REQUIRE(cancel(auth, str(txn)).status == 200);
    const auto note = yookassa_pays(txn);
    BOOST_TEST(note.status == 200);
    BOOST_TEST(note.json()["accepted"].GetBool());
    BOOST_TEST_REQUIRE(wait_until([&] { return transaction_status(txn) == "completed"; }, 30000));
    const money::Books b = money::books(money::Shopper{tg, user_id_of(tg), "", ""});
    BOOST_TEST(b.paid_transactions == 1);
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(b.panel_expire_at == b.expire_at);
}

// The autopay switch says what it will charge and when, and is refused where it cannot
// work; /me and PostgreSQL follow it.
BOOST_AUTO_TEST_CASE(autopay_switch_says_what_it_charges_and_when) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    BOOST_TEST(http("GET", "/api/cabinet/subscription/autopay", {auth}).json()["next_charge"].IsNull());
    BOOST_TEST(put_autopay(auth, R"({"enabled":true})").status == 404);  // nothing to renew yet

    // A trial is not renewed.
    BOOST_REQUIRE(http("POST", "/api/cabinet/trial", {auth}).status == 200);
    const auto trial = put_autopay(auth, R"({"enabled":true})");
    BOOST_TEST(trial.status == 409);
    BOOST_TEST(detail(trial) == "a trial is not renewed automatically: buy a plan first");

    set_balance(tg, 29900);
    BOOST_REQUIRE(buy_standard(auth, "balance").status == 200);
    const auto before = http("GET", "/api/cabinet/subscription/autopay", {auth});
    BOOST_REQUIRE_MESSAGE(before.status == 200, before.body);
    const rapidjson::Document b = before.json();
    BOOST_TEST(!b["enabled"].GetBool());
    const auto& c = b["next_charge"];
    BOOST_TEST_REQUIRE(c.IsObject());
    BOOST_TEST(c["amount_minor"].GetInt64() == 29900);
    BOOST_TEST(str(c["currency"]) == "RUB");
    BOOST_TEST(str(c["plan_name"]) == "Standard");
    BOOST_TEST(c["days"].GetInt64() == 30);
    BOOST_TEST(!c["balance_enough"].GetBool());  // the balance went on the purchase
    const int64_t expire = count("SELECT floor(extract(epoch FROM expire_at))::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    BOOST_TEST(str(c["expire_at"]) == cabinet::iso8601_utc(expire));
    BOOST_TEST(str(c["charge_from"]) == cabinet::iso8601_utc(expire - 86400));

    for (const char* bad : {R"({"enabled":"yes"})", R"({})", "not json", R"({"enabled":1})"}) {
        BOOST_TEST(put_autopay(auth, bad).status == 400, bad);
    }
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE autopay_enabled AND user_id = " + uid_of(tg)) == 0);

    const auto on = put_autopay(auth, R"({"enabled":true})");
    BOOST_REQUIRE_MESSAGE(on.status == 200, on.body);
    BOOST_TEST(on.json()["enabled"].GetBool());
    BOOST_TEST(on.json()["next_charge"]["amount_minor"].GetInt64() == 29900);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE autopay_enabled AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["autopay_enabled"].GetBool());
    set_balance(tg, 40000);
    BOOST_TEST(http("GET", "/api/cabinet/subscription/autopay", {auth}).json()["next_charge"]["balance_enough"].GetBool());

    const auto off = put_autopay(auth, R"({"enabled":false})");
    BOOST_TEST(off.status == 200);
    BOOST_TEST(!off.json()["enabled"].GetBool());
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE autopay_enabled AND user_id = " + uid_of(tg)) == 0);
    BOOST_TEST(!http("GET", "/api/cabinet/me", {auth}).json()["subscription"]["autopay_enabled"].GetBool());

    // The shop without the balance: nothing to charge from.
    PoolWith pool("BALANCE_ENABLED=false");
    const auto no_balance = put_autopay(auth, R"({"enabled":true})");
    BOOST_TEST(no_balance.status == 409);
    BOOST_TEST(detail(no_balance) == "the shop does not take payments from the balance");
}

BOOST_AUTO_TEST_SUITE_END()
