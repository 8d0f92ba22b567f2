#include "payment_webhook_support.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "money_support.hpp"

namespace it::webhooks {

std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    cabinet::JsonWriter w(buf);
    v.Accept(w);
    return buf.GetString();
}

// A pending online purchase of Standard/30 days for 299.00 RUB, as POST /purchase leaves it.
int64_t pending_purchase(const std::string& provider) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    const std::string plan = std::to_string(count("SELECT id FROM plans WHERE public_code = 'standard'"));
    return count(
        "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider, plan_snapshot,"
        " pricing, description) SELECT id, 'subscription_payment', 'pending', 29900, 'RUB', '" + provider + "', '" +
        provider + R"(', '{"name":"Standard","mode":"plans","plan_id":)" + plan +
        R"(,"public_code":"standard","days":30,"traffic_limit_bytes":0,"device_limit":3}', '{"final_minor":29900,"stars":167}',)"
        " 'Standard, 30 days' FROM users WHERE telegram_id = " + std::to_string(tg) + " RETURNING id");
}

cabinet::CheckoutRequest checkout_for(int64_t txn) {
    cabinet::CheckoutRequest r;
    r.transaction_id = txn;
    r.amount_minor = 29900;
    r.currency = "RUB";
    r.description = "Standard, 30 days";
    return r;
}

// The gateway's own create() against the fake, then bound to the transaction as purchase does.
std::string checkout(cabinet::Gateway& gw, int64_t txn) {
    const auto c = gw.create(checkout_for(txn));
    BOOST_TEST(!c.redirect_url.empty());
    exec("UPDATE transactions SET provider_payment_id = '" + c.provider_payment_id + "' WHERE id = " + std::to_string(txn));
    return c.provider_payment_id;
}

// Sets the fake payment's state; returns the notification YooKassa would send for it.
std::string yookassa_set(const std::string& id, const std::string& change) {
    const auto r = http_url("POST", fake_url("/__fake/yookassa/payments/" + id), kJsonHeaders, change);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return to_json(r.json()["notification"]);
}

HttpResult notify(const std::string& gateway, const std::string& body, std::vector<std::string> headers) {
    return http("POST", "/api/v1/payments/" + gateway, headers, body);
}

// As a provider delivers: posted again after the Retry-After of a 503 busy (more than
// GATEWAY_CONCURRENCY notifications at once in a pool process), until otherwise answered.
HttpResult deliver(const std::string& gateway, const std::string& body) {
    HttpResult r;
    for (int attempt = 0; attempt < 30; ++attempt) {
        r = notify(gateway, body);
        if (r.status != 503 || r.headers["retry-after"] != "1") break;
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return r;
}

// A string field for comparisons (rapidjson values cannot be printed by BOOST_TEST).
std::string str_of(const rapidjson::Value& v) { return v.IsString() ? v.GetString() : "<not a string>"; }

bool accepted(const HttpResult& r) { return r.status == 200 && r.json()["accepted"].GetBool(); }

std::string where(int64_t txn) { return " FROM transactions WHERE id = " + std::to_string(txn); }
bool paid(int64_t txn) { return count("SELECT count(*)" + where(txn) + " AND paid_at IS NOT NULL") == 1; }
bool status_is(int64_t txn, const std::string& s) { return count("SELECT count(*)" + where(txn) + " AND status = '" + s + "'") == 1; }
int64_t jobs_for(int64_t txn) {
    return count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND dedupe_key = 'fulfil:" + std::to_string(txn) + "'");
}

// The buyer of `txn` has one paid payment and one grant of its 30 days (on the panel too),
// and no money moved twice.
void bought_30_days_once(int64_t txn) {
    const int64_t user = count("SELECT user_id" + where(txn));
    const money::Shopper buyer{count("SELECT telegram_id FROM users WHERE id = " + std::to_string(user)), user, "", ""};
    const money::Books b = money::books(buyer);
    BOOST_TEST(b.paid_transactions == 1);
    BOOST_TEST(b.balance == 0);
    BOOST_TEST(b.ledger_sum == 0);
    const int64_t now = count("SELECT extract(epoch FROM now())::bigint");
    BOOST_TEST(b.expire_at > now + 29 * money::kDay);
    BOOST_TEST(b.expire_at <= now + 30 * money::kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);
}


}  // namespace it::webhooks
