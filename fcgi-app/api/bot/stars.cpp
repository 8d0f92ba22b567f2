#include "api/bot/stars.hpp"

#include <spdlog/spdlog.h>

#include "errors.hpp"
#include "http/body.hpp"
#include "services/stars_payments.hpp"
#include "telegram/bot_api.hpp"
#include "util/strings.hpp"

namespace cabinet::bot {
namespace {

// Our invoices carry the transaction id as their payload; 0 for anyone else's.
int64_t transaction_id_of(const rapidjson::Value& obj) {
    int64_t id = 0;
    auto p = obj.FindMember("invoice_payload");
    if (p == obj.MemberEnd() || !p->value.IsString() || !parse_int64(p->value.GetString(), id) || id <= 0) return 0;
    return id;
}

// A successful_payment or refunded_payment; 400 `no_payload` when it is not for our invoice.
StarsCharge stars_charge_of(const rapidjson::Value& p, const char* no_payload) {
    StarsCharge c;
    c.transaction_id = transaction_id_of(p);
    if (c.transaction_id == 0) throw bad_request(no_payload);
    c.currency = require_string(p, "currency", 1, 8);
    c.amount = require_int(p, "total_amount", 0, INT64_MAX);
    c.charge_id = require_string(p, "telegram_payment_charge_id", 1, 256);
    return c;
}

}  // namespace

void answer_pre_checkout(Exchange& ex, const rapidjson::Value& q) {
    const std::string query_id = require_string(q, "id", 1, 256);
    const int64_t tx = transaction_id_of(q);
    const std::string currency = require_string(q, "currency", 1, 8);
    const int64_t amount = require_int(q, "total_amount", 0, INT64_MAX);
    bool ok = false;
    if (tx > 0) ok = stars_invoice_payable(ex.io.db, tx, amount);
    ok = ok && currency == "XTR";
    if (!ok) spdlog::warn("{} stars pre-checkout refused for payload {} ({} {})", ex.req.request_id, tx, amount, currency);
    BotApi(ex.settings()).answer_pre_checkout_query(query_id, ok, ok ? "" : "This invoice is no longer valid.");
}

void record_stars_payment(Exchange& ex, const rapidjson::Value& p) {
    const StarsCharge charge = stars_charge_of(p, "successful_payment without our payload");
    const Confirmation c = confirm_stars_payment(ex.io.db, charge);
    spdlog::info("{} stars payment for transaction {}: {}", ex.req.request_id, charge.transaction_id,
                 confirmation_name(c));
}

void record_stars_refund(Exchange& ex, const rapidjson::Value& p) {
    const StarsCharge charge = stars_charge_of(p, "refunded_payment without our payload");
    if (charge.currency != "XTR") throw bad_request("refunded_payment is not in stars");
    const StarsRefund r = refund_stars_charge(ex.io.db, ex.io.panel, charge);
    spdlog::info("{} stars refund of charge {} (payload {}, transaction {}): {}", ex.req.request_id, charge.charge_id,
                 charge.transaction_id, r.transaction_id, refund_outcome_name(r.outcome));
}

}  // namespace cabinet::bot
