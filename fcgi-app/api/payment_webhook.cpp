// POST /api/v1/payments/{gateway}: a payment provider says a payment changed (SPEC
// "Events", SPEC-GAPS "Payment webhooks"). Nothing in the body is believed until verified:
// YooKassa's notification is only a hint, the payment is fetched back with our
// credentials, and only if the id is one of ours (a made-up id is refused without asking
// YooKassa); CryptoBot's update must carry a valid HMAC signature. With
// YOOKASSA_WEBHOOK_FROM / CRYPTOBOT_WEBHOOK_FROM set, only those networks may post at all.
// What the provider's state makes of the transaction is services/gateway_state.hpp's, as
// for the worker's recheck of payments whose notifications never came.
//
// 200 {"accepted": true}   paid now (also late), refunded now, or a replay (no change)
// 200 {"accepted": false}  verified but not creditable: underpaid (failed), canceled, not
//                          paid, refused, or a partial refund (recorded only)
// 400 malformed body, 403 bad signature or a sender outside the allow-list, 404 unknown or
//     disabled gateway / unknown payment,
// 502 the provider's API is down while we verify (the provider retries later),
// 503 busy, try again (Retry-After): GATEWAY_CONCURRENCY verifications already in flight
//     in this process (net/call_slots.hpp: slots of their own, apart from checkouts'; nginx
//     answers the same beyond its per-address limit); nothing changed, the provider retries.
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "errors.hpp"
#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"
#include "services/gateway_state.hpp"
#include "util/client_net.hpp"
#include "util/client_json.hpp"

namespace cabinet::api {
namespace {

// Every refusal is logged with the request id: dispatch logs only 5xx.
[[noreturn]] void reject(const Exchange& ex, const std::string& gateway, ApiError e, const std::string& why) {
    spdlog::warn("{} payment webhook {} rejected ({}): {}", ex.req.request_id, gateway, e.status(), why);
    throw e;
}

void answer(Exchange& ex, bool accepted) { JsonObject(ex.resp.json()).put("accepted", accepted); }

// The transaction a provider's payment id belongs to. A notification for an id we never
// stored is refused here, before the provider is asked: a stranger posting made-up ids
// costs one index lookup and none of the gateway slots real notifications need.
int64_t our_transaction(Exchange& ex, const std::string& gateway, const std::string& payment_id) {
    const auto id = payment_of(ex.io.db, gateway, payment_id);
    if (!id) reject(ex, gateway, not_found("unknown payment"), "payment " + payment_id + " is not ours");
    return *id;
}

void log_verdict(const Exchange& ex, const std::string& gateway, const std::string& payment_id, int64_t txn_id,
                 const GatewayVerdict& v) {
    if (v.accepted) spdlog::info("{} payment {} of transaction {} via {}: {}", ex.req.request_id, payment_id, txn_id, gateway, v.outcome);
    else spdlog::warn("{} payment webhook {}: payment {} of transaction {} not credited: {}", ex.req.request_id, gateway,
                      payment_id, txn_id, v.outcome);
}

void yookassa(Exchange& ex, YooKassa& gw) {
    const auto note = parse_yookassa_notification(ex.req.body);
    if (!note) reject(ex, "yookassa", bad_request("malformed notification"), "body is not well-formed JSON with a plausible payment id");
    const int64_t txn_id = our_transaction(ex, "yookassa", note->payment_id);

    std::optional<YooKassaPayment> p;
    try {
        p = gw.fetch(note->payment_id);
    } catch (const GatewayError& e) {
        spdlog::warn("{} payment webhook yookassa: cannot verify {}: {}", ex.req.request_id, note->payment_id, e.why());
        throw;
    }
    if (!p) reject(ex, "yookassa", not_found("unknown payment"), "YooKassa does not know payment " + note->payment_id);
    // The provider's own state decides; the event name is only what the caller claims.
    const GatewayVerdict v = apply_yookassa_payment(ex.io.db, ex.io.panel, txn_id, *p);
    log_verdict(ex, "yookassa", p->id, txn_id, {v.accepted, v.outcome + " (the notification said " + note->event + ")"});
    answer(ex, v.accepted);
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
    GatewayVerdict v;
    try {
        v = apply_cryptobot_invoice(ex.io.db, u->transaction_id, *u);
    } catch (const ApiError& e) {  // 404: no such transaction
        reject(ex, "cryptobot", e, "invoice " + u->invoice_id + " names transaction " + std::to_string(u->transaction_id));
    }
    log_verdict(ex, "cryptobot", u->invoice_id, u->transaction_id, v);
    answer(ex, v.accepted);
}

// YOOKASSA_WEBHOOK_FROM / CRYPTOBOT_WEBHOOK_FROM: when set, a notification from anywhere
// else is refused before its body is read.
void check_sender(const Exchange& ex, const std::string& gateway) {
    const Settings& s = ex.settings();
    const auto& from = gateway == "yookassa" ? s.yookassa_webhook_from : s.cryptobot_webhook_from;
    if (!from.empty() && !in_networks(ex.req.remote_addr, from))
        reject(ex, gateway, forbidden("notifications are accepted from the payment provider's addresses only"),
               "sent from " + ex.req.remote_addr + ", outside the allow-list");
}

}  // namespace

void post_payment_webhook(Exchange& ex) {
    const std::string& gateway = ex.req.path_params.at(0);
    // The name is the caller's: only a plain one goes into the log.
    const bool plain = gateway.size() <= 32 && gateway.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string::npos;
    // make_gateway is the single "is it enabled and configured" rule, for purchase and here.
    auto gw = make_gateway(gateway, ex.settings(), &ex.shared.notification_slots);
    if (!gw) reject(ex, plain ? gateway : "?", not_found("unknown payment gateway"), "not enabled");
    check_sender(ex, gateway);
    if (auto* y = dynamic_cast<YooKassa*>(gw.get())) return yookassa(ex, *y);
    if (dynamic_cast<CryptoBot*>(gw.get())) return cryptobot(ex);
    reject(ex, plain ? gateway : "?", not_found("unknown payment gateway"), "no webhook for this gateway");
}

}  // namespace cabinet::api
