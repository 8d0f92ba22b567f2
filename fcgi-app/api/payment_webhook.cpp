// POST /api/v1/payments/{gateway}: a payment provider says a payment changed (SPEC
// "Events", SPEC-GAPS "Payment webhooks"). Nothing in the body is believed until verified:
// YooKassa's notification is only a hint, the payment is fetched back with our
// credentials; CryptoBot's update must carry a valid HMAC signature. Then
// confirm_payment() marks the transaction paid and queues its fulfilment in one commit, or,
// for a YooKassa payment with a refunded amount, refund_payment() takes its purchase back.
//
// 200 {"accepted": true}   paid now (also late), refunded now, or a replay (no change)
// 200 {"accepted": false}  verified but not creditable: underpaid (failed), canceled, not
//                          paid, refused, or a partial refund (recorded only)
// 400 malformed body, 403 bad signature, 404 unknown or disabled gateway / unknown payment,
// 502 the provider's API is down while we verify (the provider retries later),
// 503 busy, try again (Retry-After): GATEWAY_CONCURRENCY verifications already in flight
//     in this process (net/call_slots.hpp; nginx answers the same beyond its per-host
//     limit); nothing changed, the provider retries.
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_refund.hpp"
#include "util/client_json.hpp"
#include "util/json.hpp"

namespace cabinet::api {
namespace {

// Every refusal is logged with the request id: dispatch logs only 5xx.
[[noreturn]] void reject(const Exchange& ex, const std::string& gateway, ApiError e, const std::string& why) {
    spdlog::warn("{} payment webhook {} rejected ({}): {}", ex.req.request_id, gateway, e.status(), why);
    throw e;
}

void answer(Exchange& ex, bool accepted) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("accepted");
    w.Bool(accepted);
    w.EndObject();
}

// Marks paid + enqueues in one transaction; true when it counts as accepted (a replay too).
bool confirm(Exchange& ex, const std::string& gateway, int64_t transaction_id, const std::string& payment_id,
             int64_t amount_minor, const std::string& currency) {
    Confirmation c = Confirmation::underpaid;
    try {
        c = ex.io.db.transact([&](pqxx::work& txn) {
            return confirm_payment(txn, transaction_id, gateway, payment_id, amount_minor, currency);
        });
    } catch (const ApiError& e) {  // 404: no such transaction
        reject(ex, gateway, e, "payment " + payment_id + " names transaction " + std::to_string(transaction_id));
    }
    switch (c) {
        case Confirmation::accepted:
            spdlog::info("{} payment {} of transaction {} paid via {}", ex.req.request_id, payment_id, transaction_id, gateway);
            return true;
        case Confirmation::late:
            spdlog::warn("{} payment {} of transaction {} paid via {} after the invoice had ended", ex.req.request_id,
                         payment_id, transaction_id, gateway);
            return true;
        case Confirmation::already_paid:
        case Confirmation::second_charge:  // Stars only; here for the switch to be whole
            return true;
        case Confirmation::underpaid:
        case Confirmation::refused:
            spdlog::warn("{} payment webhook {}: payment {} of transaction {} not credited ({} {} paid)",
                         ex.req.request_id, gateway, payment_id, transaction_id, amount_minor, currency);
            return false;
    }
    return false;
}

// The transaction a YooKassa payment belongs to: our metadata, else the id it gave us.
int64_t yookassa_transaction(Exchange& ex, const YooKassaPayment& p) {
    if (p.transaction_id > 0) return p.transaction_id;
    const auto rows = ex.io.db.read(
        [&](pqxx::nontransaction& txn) { return exec_prepared(txn, "payment_by_provider_id", "yookassa", p.id); });
    if (rows.empty()) reject(ex, "yookassa", not_found("unknown payment"), "payment " + p.id + " is not ours");
    return rows[0][0].as<int64_t>();
}

void yookassa(Exchange& ex, YooKassa& gw) {
    const auto note = parse_yookassa_notification(ex.req.body);
    if (!note) reject(ex, "yookassa", bad_request("malformed notification"), "body is not well-formed JSON with a plausible payment id");
    const std::string& payment_id = note->payment_id;
    const std::string& said = note->event;

    std::optional<YooKassaPayment> p;
    try {
        p = gw.fetch(payment_id);
    } catch (const GatewayError& e) {
        spdlog::warn("{} payment webhook yookassa: cannot verify {}: {}", ex.req.request_id, payment_id, e.why());
        throw;
    }
    if (!p) reject(ex, "yookassa", not_found("unknown payment"), "YooKassa does not know payment " + payment_id);

    // The provider's own state decides; the event name is only what the caller claims.
    if (p->refunded_minor > 0) {
        const int64_t txn_id = yookassa_transaction(ex, *p);
        // Part of it refunded before its success reached us (we were down, or the shop
        // refunded at once): the rest was paid, so the payment is credited first (a replay
        // if it was already), then the refund recorded. Answering only the refund left the
        // payment unpaid here, and YooKassa, answered 200, never told us again.
        if (p->status == "succeeded" && p->refunded_minor < p->amount_minor)
            confirm(ex, "yookassa", txn_id, p->id, p->amount_minor, p->currency);
        const RefundOutcome r = ex.io.db.transact(
            [&](pqxx::work& txn) { return refund_payment(txn, ex.io.panel, txn_id, "yookassa", p->refunded_minor); });
        spdlog::info("{} payment {} of transaction {} refunded ({} of {}): {}", ex.req.request_id, p->id, txn_id,
                     p->refunded_minor, p->amount_minor, refund_outcome_name(r));
        answer(ex, r == RefundOutcome::taken_back || r == RefundOutcome::replay);
        return;
    }
    if (p->status == "succeeded") {
        answer(ex, confirm(ex, "yookassa", yookassa_transaction(ex, *p), p->id, p->amount_minor, p->currency));
        return;
    }
    if (p->status == "canceled") {
        const int64_t txn_id = yookassa_transaction(ex, *p);
        const bool ended = ex.io.db.transact([&](pqxx::work& txn) {
            return cancel_pending_payment(txn, txn_id, p->id, "yookassa",
                                          "canceled by the provider: " + (p->cancel_reason.empty() ? "unknown" : p->cancel_reason));
        });
        spdlog::info("{} payment {} of transaction {} canceled ({})", ex.req.request_id, p->id, txn_id,
                     ended ? "ended now" : "nothing pending");
        answer(ex, false);
        return;
    }
    // pending / waiting_for_capture: a notification that does not match the payment.
    spdlog::warn("{} payment webhook yookassa: event '{}' but payment {} is {}: nothing done", ex.req.request_id, said,
                 p->id, p->status);
    answer(ex, false);
}

void cryptobot(Exchange& ex) {
    const Settings& s = ex.settings();
    if (!cryptobot_signature_ok(s.cryptobot_token, ex.req.body, ex.req.crypto_pay_signature))
        reject(ex, "cryptobot", forbidden("invalid signature"), "crypto-pay-api-signature does not match the body");
    const auto u = parse_cryptobot_update(ex.req.body);
    if (!u) reject(ex, "cryptobot", bad_request("malformed update"), "signed body is not an invoice update");
    if (u->update_type != "invoice_paid" || u->status != "paid") {
        spdlog::info("{} payment webhook cryptobot: {} for invoice {} ({}) ignored", ex.req.request_id, u->update_type,
                     u->invoice_id, u->status);
        answer(ex, false);
        return;
    }
    if (u->transaction_id == 0)
        reject(ex, "cryptobot", not_found("unknown payment"), "invoice " + u->invoice_id + " carries no transaction id");
    answer(ex, confirm(ex, "cryptobot", u->transaction_id, u->invoice_id, u->amount_minor, u->currency));
}

}  // namespace

void post_payment_webhook(Exchange& ex) {
    const std::string& gateway = ex.req.path_params.at(0);
    // The name is the caller's: only a plain one goes into the log.
    const bool plain = gateway.size() <= 32 && gateway.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
    // make_gateway is the single "is it enabled and configured" rule, for purchase and here.
    auto gw = make_gateway(gateway, ex.settings(), &ex.shared.gateway_slots);
    if (!gw) reject(ex, plain ? gateway : "?", not_found("unknown payment gateway"), "not enabled");
    if (auto* y = dynamic_cast<YooKassa*>(gw.get())) return yookassa(ex, *y);
    if (dynamic_cast<CryptoBot*>(gw.get())) return cryptobot(ex);
    reject(ex, plain ? gateway : "?", not_found("unknown payment gateway"), "no webhook for this gateway");
}

}  // namespace cabinet::api
