#include "api/bot/stars.hpp"

#include <spdlog/spdlog.h>

#include "errors.hpp"
#include "http/body.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_refund.hpp"
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

}  // namespace

void answer_pre_checkout(Exchange& ex, const rapidjson::Value& q) {
    const std::string query_id = require_string(q, "id", 1, 256);
    const int64_t tx = transaction_id_of(q);
    const std::string currency = require_string(q, "currency", 1, 8);
    const int64_t amount = require_int(q, "total_amount", 0, INT64_MAX);
    bool ok = false;
    if (tx > 0) ok = ex.io.db.read([&](auto& txn) { return stars_invoice_open(txn, tx, amount); });
    ok = ok && currency == "XTR";
    if (!ok) spdlog::warn("{} stars pre-checkout refused for payload {} ({} {})", ex.req.request_id, tx, amount, currency);
    BotApi(ex.settings()).answer_pre_checkout_query(query_id, ok, ok ? "" : "This invoice is no longer valid.");
}

void record_stars_payment(Exchange& ex, const rapidjson::Value& p) {
    const int64_t tx = transaction_id_of(p);
    if (tx == 0) throw bad_request("successful_payment without our payload");
    const std::string currency = require_string(p, "currency", 1, 8);
    const int64_t amount = require_int(p, "total_amount", 0, INT64_MAX);
    const std::string charge = require_string(p, "telegram_payment_charge_id", 1, 256);
    const Confirmation c = ex.io.db.transact(
        [&](pqxx::work& txn) { return confirm_payment(txn, tx, "stars", "stars:" + charge, amount, currency); });
    spdlog::info("{} stars payment for transaction {}: {}", ex.req.request_id, tx,
                 confirmation_name(c));
}

void record_stars_refund(Exchange& ex, const rapidjson::Value& p) {
    const int64_t tx = transaction_id_of(p);
    if (tx == 0) throw bad_request("refunded_payment without our payload");
    const std::string currency = require_string(p, "currency", 1, 8);
    const int64_t amount = require_int(p, "total_amount", 0, INT64_MAX);
    const std::string charge = require_string(p, "telegram_payment_charge_id", 1, 256);
    if (currency != "XTR") throw bad_request("refunded_payment is not in stars");
    // The charge, not the payload, says what is refunded: an invoice paid twice has one
    // payload and two charges, the second of them on the balance (confirm_payment).
    const auto [target, r] = ex.io.db.transact([&](pqxx::work& txn) {
        const int64_t id = stars_refund_target(txn, tx, "stars:" + charge);
        return std::pair{id, id == 0 ? RefundOutcome::not_ours : refund_payment(txn, ex.io.panel, id, "stars", amount)};
    });
    spdlog::info("{} stars refund of charge {} (payload {}, transaction {}): {}", ex.req.request_id, charge, tx, target,
                 refund_outcome_name(r));
}

}  // namespace cabinet::bot
