// Refunds take back what the payment bought, once (issue 13): a Stars `refunded_payment`
// and a YooKassa `refund.succeeded` move the expiry back by the purchase's days, on the
// panel too, or take a balance credit back through the ledger; a repeat changes nothing,
// a partial refund only records itself.
#include <boost/test/unit_test.hpp>

#include "money_support.hpp"
#include "panel/panel_client.hpp"
#include "support.hpp"

using namespace it;

namespace {

// The transaction of a purchase of the standard plan with `method`.
int64_t bought(const std::string& auth, const std::string& method) {
    const auto r = buy_standard(auth, method);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json()["transaction_id"].GetInt64();
}

int64_t stars_of(int64_t tx) { return count("SELECT (pricing->>'stars')::bigint FROM transactions WHERE id = " + std::to_string(tx)); }

// `charge`: Telegram's charge id; by default one per invoice.
std::string stars_message(const char* kind, int64_t tg, int64_t tx, int64_t stars, std::string charge = "") {
    if (charge.empty()) charge = "rf_" + std::to_string(tx);
    return std::string(R"({"update_id":7,"message":{"message_id":9,"chat":{"id":)") + std::to_string(tg) + R"(},")" + kind +
           R"(":{"currency":"XTR","total_amount":)" + std::to_string(stars) + R"(,"invoice_payload":")" +
           std::to_string(tx) + R"(","telegram_payment_charge_id":")" + charge + "\"}}}";
}

bool completed(int64_t tx) {
    return wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + std::to_string(tx)) == 1;
    }, 20000);
}

// The YooKassa payment id of our transaction.
std::string yookassa_payment(int64_t tx) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    return q.exec_params1("SELECT provider_payment_id FROM transactions WHERE id = $1", tx)[0].c_str();
}

// Changes the fake YooKassa's payment (`change`: {"status":...} or {"refund":"100.00"}) and
// returns the notification YooKassa would send about it.
std::string yookassa_changes(const std::string& payment, const std::string& change) {
    const auto hook = http_url("POST", fake_url("/__fake/yookassa/payments/" + payment), {kJsonContentType}, change);
    BOOST_REQUIRE(hook.status == 200);
    rapidjson::StringBuffer buf;
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    hook.json()["notification"].Accept(w);
    return buf.GetString();
}

cabinet::PanelUser panel_user(int64_t tg) {
    cabinet::PanelClient panel("http://127.0.0.1:" + env("PANEL_PORT"), "test", 2000, 10000);
    const auto users = panel.users_by_telegram_id(tg);
    BOOST_REQUIRE_EQUAL(users.size(), 1u);
    return users[0];
}

}  // namespace

BOOST_AUTO_TEST_SUITE(payment_refund)

BOOST_AUTO_TEST_CASE(a_stars_refund_takes_the_days_back_once) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    // Ten days already paid for: the refund takes back its 30, not what was there before.
    const int64_t earlier = bought(auth, "stars");
    BOOST_REQUIRE(bot_update(stars_message("successful_payment", tg, earlier, stars_of(earlier))).status == 200);
    BOOST_REQUIRE(completed(earlier));
    exec("UPDATE subscriptions SET expire_at = now() + interval '10 days' WHERE user_id = " + uid_of(tg));
    const int64_t tx = bought(auth, "stars");
    BOOST_REQUIRE(bot_update(stars_message("successful_payment", tg, tx, stars_of(tx))).status == 200);
    BOOST_REQUIRE(completed(tx));
    BOOST_TEST(days_left(tg) == 40);  // 10 days and 30 more

    // Telegram repeats updates, here ten at once: the days come back once.
    std::vector<long> status(10);
    std::vector<std::function<void()>> deliveries;
    for (size_t i = 0; i < status.size(); ++i)
        deliveries.push_back([&, i] { status[i] = bot_update(stars_message("refunded_payment", tg, tx, stars_of(tx))).status; });
    money::run_together(deliveries);
    for (long st : status) BOOST_TEST(st == 200L);
    const std::string id = std::to_string(tx);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'refunded' AND id = " + id) == 1);
    BOOST_TEST(days_left(tg) == 10);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history WHERE source = 'refund' AND days = -30 AND transaction_id = " + id) == 1);
    const int64_t local_expire = count("SELECT extract(epoch FROM expire_at)::bigint FROM subscriptions WHERE user_id = " + uid_of(tg));
    BOOST_TEST(panel_user(tg).expire_at == local_expire);
    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_TEST(std::string(pay["items"][0]["status"].GetString()) == "refunded");
}

// The owner blocked the customer after the payment (disabled on the panel, mirrored by the
// sync) and then refunded it: the days go back, and the block stays.
BOOST_AUTO_TEST_CASE(a_refund_of_a_blocked_customers_payment_keeps_the_block) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t tx = bought(auth, "stars");
    BOOST_REQUIRE(bot_update(stars_message("successful_payment", tg, tx, stars_of(tx))).status == 200);
    BOOST_REQUIRE(completed(tx));
    exec("UPDATE subscriptions SET expire_at = now() + interval '40 days' WHERE user_id = " + uid_of(tg));
    cabinet::PanelClient panel("http://127.0.0.1:" + env("PANEL_PORT"), "test", 2000, 10000);
    panel.disable_user(panel_user(tg).uuid);
    exec("UPDATE subscriptions SET status = 'disabled' WHERE user_id = " + uid_of(tg));

    BOOST_REQUIRE(bot_update(stars_message("refunded_payment", tg, tx, stars_of(tx))).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'refunded' AND id = " + std::to_string(tx)) == 1);
    BOOST_TEST(days_left(tg) == 10);
    BOOST_TEST(panel_user(tg).status == "DISABLED");
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE status = 'disabled' AND user_id = " + uid_of(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(a_yookassa_refund_takes_the_days_back_and_a_partial_one_only_records) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t tx = bought(auth, "yookassa");
    const std::string id = std::to_string(tx);
    const std::string payment = yookassa_payment(tx);
    auto notify = [&](const std::string& change) {
        return http("POST", "/api/v1/payments/yookassa", {kJsonContentType}, yookassa_changes(payment, change));
    };
    BOOST_REQUIRE(notify(R"({"status":"succeeded"})").json()["accepted"].GetBool());
    BOOST_REQUIRE(completed(tx));
    BOOST_TEST(days_left(tg) == 30);

    const auto part = notify(R"({"refund":"100.00"})");  // 100 of 299: recorded, nothing taken
    BOOST_REQUIRE_MESSAGE(part.status == 200, part.body);
    BOOST_TEST(part.json()["accepted"].GetBool() == false);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND failure_reason LIKE 'partly refunded%' AND id = " + id) == 1);
    BOOST_TEST(days_left(tg) == 30);

    const auto rest = notify(R"({"refund":"199.00"})");  // now all of it
    BOOST_TEST(rest.json()["accepted"].GetBool());
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'refunded' AND id = " + id) == 1);
    BOOST_TEST(days_left(tg) == 0);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE status = 'expired' AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(panel_user(tg).status == "DISABLED");  // the panel takes no expiry in the past
}

// The shop refunds part of a payment before YooKassa's success notification reached us:
// the one notification we get says "succeeded, 100 of 299 refunded". The payment is still
// paid, so it is fulfilled once, and the partial refund is recorded as ever.
BOOST_AUTO_TEST_CASE(a_yookassa_payment_partly_refunded_before_its_success_reached_us_is_fulfilled) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t tx = bought(auth, "yookassa");
    const std::string id = std::to_string(tx);
    const std::string payment = yookassa_payment(tx);
    yookassa_changes(payment, R"({"status":"succeeded"})");  // its notification is lost
    const std::string refund = yookassa_changes(payment, R"({"refund":"100.00"})");
    for (int i = 0; i < 2; ++i) BOOST_REQUIRE(http("POST", "/api/v1/payments/yookassa", {kJsonContentType}, refund).status == 200);
    BOOST_REQUIRE(completed(tx));
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history WHERE transaction_id = " + id) == 1);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE failure_reason LIKE 'partly refunded%' AND id = " + id) == 1);
}

BOOST_AUTO_TEST_CASE(a_refund_of_a_balance_credit_takes_it_back_through_the_ledger) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    http("GET", "/api/cabinet/me", {auth});
    exec("UPDATE users SET promo_discount_pct = 50, promo_discount_until = now() + interval '1 day' WHERE id = " + uid_of(tg));
    const int64_t first = bought(auth, "stars");
    bought(auth, "stars");  // takes the discount over: the first can only be credited
    BOOST_REQUIRE(bot_update(stars_message("successful_payment", tg, first, stars_of(first))).status == 200);
    BOOST_REQUIRE(completed(first));
    const int64_t credit = count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg));
    BOOST_REQUIRE(credit > 0);

    BOOST_TEST(bot_update(stars_message("refunded_payment", tg, first, stars_of(first))).status == 200);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg)) == 0);
    BOOST_TEST(count("SELECT count(*) FROM balance_ledger WHERE reason = 'refund' AND delta_minor = " + std::to_string(-credit) +
                     " AND transaction_id = " + std::to_string(first)) == 1);
    const auto [rc, out] = run(ctl("check-ledger"));
    BOOST_TEST(rc == 0, out);
}

// A Stars invoice link can be paid twice (a double tap before the first payment is
// processed): the second charge is money taken too. It goes to the balance, once however
// often Telegram repeats it, and each refund takes back what its own charge bought.
BOOST_AUTO_TEST_CASE(an_invoice_paid_twice_credits_the_second_charge_and_refunds_each_by_its_charge) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t tx = bought(auth, "stars");
    const int64_t stars = stars_of(tx);
    const int64_t price = count("SELECT amount_minor FROM transactions WHERE id = " + std::to_string(tx));
    BOOST_REQUIRE(bot_update(stars_message("successful_payment", tg, tx, stars)).status == 200);
    BOOST_REQUIRE(completed(tx));
    BOOST_REQUIRE_EQUAL(days_left(tg), 30);

    const std::string second = "twice_" + std::to_string(tx);
    std::vector<long> status(8);
    std::vector<std::function<void()>> deliveries;
    for (size_t i = 0; i < status.size(); ++i)
        deliveries.push_back([&, i] { status[i] = bot_update(stars_message("successful_payment", tg, tx, stars, second)).status; });
    money::run_together(deliveries);
    for (long st : status) BOOST_TEST(st == 200L);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg)) == price);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE type = 'deposit' AND status = 'completed' AND amount_minor = " +
                     std::to_string(price) + " AND provider_payment_id = 'stars:" + second + "' AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM balance_ledger WHERE reason = 'deposit' AND user_id = " + uid_of(tg)) == 1);
    BOOST_TEST(days_left(tg) == 30);  // the days were bought once
    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_TEST(std::string(pay["items"][0]["type"].GetString()) == "deposit");  // the buyer sees where it went

    // The second charge refunded: its credit comes off the balance, the plan stays.
    BOOST_TEST(bot_update(stars_message("refunded_payment", tg, tx, stars, second)).status == 200);
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE id = " + uid_of(tg)) == 0);
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + std::to_string(tx)) == 1);
    // The first charge refunded: now the days go.
    BOOST_TEST(bot_update(stars_message("refunded_payment", tg, tx, stars)).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'refunded' AND id = " + std::to_string(tx)) == 1);
    BOOST_TEST(days_left(tg) == 0);
    // A refund of a charge we never recorded takes nothing.
    BOOST_TEST(bot_update(stars_message("refunded_payment", tg, tx, stars, "unknown_charge")).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM balance_ledger WHERE user_id = " + uid_of(tg)) == 2);
    const auto [rc, out] = run(ctl("check-ledger"));
    BOOST_TEST(rc == 0, out);
}

BOOST_AUTO_TEST_SUITE_END()
