#include "services/gateway_state.hpp"

#include "db/prepared.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_refund.hpp"

namespace cabinet {
namespace {

GatewayVerdict confirmed(pqxx::work& txn, int64_t transaction_id, const char* provider, const std::string& payment_id,
                         int64_t amount_minor, const std::string& currency) {
    const Confirmation c = confirm_payment(txn, transaction_id, provider, payment_id, amount_minor, currency);
    const bool accepted = c == Confirmation::accepted || c == Confirmation::late || c == Confirmation::already_paid ||
                          c == Confirmation::second_charge;
    return {accepted, confirmation_name(c)};
}

}  // namespace

std::optional<int64_t> payment_of(pqxx::transaction_base& txn, const std::string& gateway,
                                  const std::string& provider_payment_id) {
    const auto rows = exec_prepared(txn, "payment_by_provider_id", gateway, provider_payment_id);
    if (rows.empty()) return std::nullopt;
    return rows[0][0].as<int64_t>();
}

std::optional<int64_t> payment_of(Db& db, const std::string& gateway, const std::string& provider_payment_id) {
    return db.read([&](pqxx::nontransaction& txn) { return payment_of(txn, gateway, provider_payment_id); });
}

GatewayVerdict apply_yookassa_payment(pqxx::work& txn, PanelClient& panel, int64_t transaction_id,
                                      const YooKassaPayment& p) {
    if (p.refunded_minor > 0) {
        // Part of it refunded before its success reached us (we were down, or the shop
        // refunded at once): the rest was paid, so the payment is credited first (a replay
        // if it was already), then the refund recorded. Answering only the refund left the
        // payment unpaid here, and YooKassa, answered 200, never told us again.
        if (p.status == "succeeded" && p.refunded_minor < p.amount_minor)
            confirmed(txn, transaction_id, "yookassa", p.id, p.amount_minor, p.currency);
        const RefundOutcome r = refund_payment(txn, panel, transaction_id, "yookassa", p.refunded_minor);
        return {r == RefundOutcome::taken_back || r == RefundOutcome::replay,
                std::string("refunded ") + std::to_string(p.refunded_minor) + " of " + std::to_string(p.amount_minor) +
                    ": " + refund_outcome_name(r)};
    }
    if (p.status == "succeeded") return confirmed(txn, transaction_id, "yookassa", p.id, p.amount_minor, p.currency);
    if (p.status == "canceled") {
        const bool ended = cancel_pending_payment(
            txn, transaction_id, p.id, "yookassa",
            "canceled by the provider: " + (p.cancel_reason.empty() ? "unknown" : p.cancel_reason));
        return {false, ended ? "canceled now" : "canceled (nothing pending)"};
    }
    return {false, "still " + p.status};  // pending, waiting_for_capture
}

GatewayVerdict apply_yookassa_payment(Db& db, PanelClient& panel, int64_t transaction_id, const YooKassaPayment& p) {
    return db.transact([&](pqxx::work& txn) { return apply_yookassa_payment(txn, panel, transaction_id, p); });
}

GatewayVerdict apply_cryptobot_invoice(pqxx::work& txn, int64_t transaction_id, const CryptoBotInvoice& inv) {
    if (inv.status != "paid") return {false, "still " + inv.status};
    return confirmed(txn, transaction_id, "cryptobot", inv.invoice_id, inv.amount_minor, inv.currency);
}

GatewayVerdict apply_cryptobot_invoice(Db& db, int64_t transaction_id, const CryptoBotInvoice& inv) {
    return db.transact([&](pqxx::work& txn) { return apply_cryptobot_invoice(txn, transaction_id, inv); });
}

}  // namespace cabinet
