#pragma once
// What the payment webhook suites share (payment_webhook_test.cpp: the providers' rules;
// payment_webhook_abuse_test.cpp: strangers, allow-lists, lost notifications): pending
// purchases made directly, the fake providers' state, notifications as a provider sends them,
// and the books of a buyer who paid once.
#include <cstdint>
#include <string>
#include <vector>

#include "payments/gateway.hpp"
#include "support.hpp"

namespace it::webhooks {

// A pending online purchase of Standard/30 days for 299.00 RUB, as POST /purchase leaves it.
int64_t pending_purchase(const std::string& provider);
cabinet::CheckoutRequest checkout_for(int64_t txn);
// The gateway's own create() against the fake, then bound to the transaction as purchase does.
std::string checkout(cabinet::Gateway& gw, int64_t txn);
// Sets the fake payment's state; returns the notification YooKassa would send for it.
std::string yookassa_set(const std::string& id, const std::string& change);
std::string to_json(const rapidjson::Value& v);
HttpResult notify(const std::string& gateway, const std::string& body, std::vector<std::string> headers = kJsonHeaders);
// As a provider delivers: posted again after the Retry-After of a 503 busy, until otherwise answered.
HttpResult deliver(const std::string& gateway, const std::string& body);
// A string field for comparisons (rapidjson values cannot be printed by BOOST_TEST).
std::string str_of(const rapidjson::Value& v);
bool accepted(const HttpResult& r);
std::string where(int64_t txn);
bool paid(int64_t txn);
bool status_is(int64_t txn, const std::string& s);
int64_t jobs_for(int64_t txn);
// The buyer of `txn` has one paid payment and one grant of its 30 days (on the panel too),
// and no money moved twice.
void bought_30_days_once(int64_t txn);

// Injected outages end with the test, also when it fails half-way.
struct FakeFailures {
    ~FakeFailures() { http_url("DELETE", fake_url("/__fake/fail")); }
};

}  // namespace it::webhooks
