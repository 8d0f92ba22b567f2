// POST /api/cabinet/purchase (SPEC "POST /purchase"): buy or renew in the shop's sales
// mode. Paid from the balance (or free at a 100 % discount) it is fulfilled here, panel
// first, under the buyer's row lock: 402 when the balance is short, 502 when the panel is
// down, and in both cases nothing is charged. Stars and online gateways only open a
// pending payment (invoice_link / redirect_url), payable for PAYMENT_PENDING_TTL_S: their
// confirmation and the worker fulfil it, never this endpoint. An Idempotency-Key makes a repeat a 409.
#include "api/checkout.hpp"
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "bot/bot_api.hpp"
#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "payments/gateway.hpp"
#include "services/balance_purchase.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

struct PurchaseOutcome {
    int64_t transaction_id = 0;
    std::string paid_with;       // balance | free; empty for a payment still to be made
    std::string payment_url;     // stars: invoice link; gateway: payment page
    bool stars = false;
    Subscription subscription;
};

std::string idempotency_key(const Request& req) {
    const std::string& k = req.idempotency_key;
    // Stored with the purchase: text PostgreSQL accepts (UTF-8, no control characters).
    if (k.size() > 128 || has_control_chars(k) || !valid_utf8(k))
        throw bad_request("Idempotency-Key must be at most 128 characters of printable text");
    return k;
}

// Balance and free orders are fulfilled here, under the buyer's lock, with the balance as
// read under the lock (services/balance_purchase).
void pay_now(Exchange& ex, pqxx::work& txn, const LockedAccount& locked, const Order& order, const std::string& method,
             const std::string& key, PurchaseOutcome& o) {
    const Settings& s = ex.settings();
    const int64_t price = order.quote.final_minor;
    o.paid_with = price == 0 ? "free" : "balance";
    // A free order is a free grant: like the trial and a promo code's days, it never lifts
    // the owner's block (docs/decisions.md "Free grants never lift the owner's block"); a paid
    // one may.
    if (price == 0 && locked.subscription && locked.subscription->status == "disabled")
        throw ApiError(409, "the subscription is disabled", "subscription_disabled");
    if (o.paid_with == "balance") {
        if (!s.balance_enabled) throw bad_request("paying from the balance is switched off", "balance_off");
        if (locked.user.balance_minor < price) throw ApiError(402, "balance insufficient", "insufficient_balance");
    }
    const SettledPurchase done = settle_purchase(
        txn, ex.io.panel, s, locked, order,
        Settlement{o.paid_with == "free" ? "free" : method, order.grant.plan_name, key, "purchase", LedgerReason::purchase});
    o.transaction_id = done.transaction_id;
    o.subscription = done.subscription;
}

// A pending transaction for `order`, payable for PAYMENT_PENDING_TTL_S; the promo discount
// in its price is held by it until it is paid or ends.
int64_t insert_pending(pqxx::work& txn, const Settings& s, const LockedAccount& locked, const Order& order,
                       const std::string& method, const std::string& key) {
    const auto id = exec_prepared(txn, "insert_purchase", locked.user.id, "pending", order.quote.final_minor,
                                  locked.user.currency, method, order_snapshot_json(order),
                                  order_pricing_json(order), order.grant.plan_name, key, s.payment_pending_ttl_s);
    const int64_t transaction_id = id[0][0].as<int64_t>();
    if (order.discounts.promo_pct > 0) exec_prepared(txn, "reserve_promo_offer", locked.user.id, transaction_id);
    return transaction_id;
}

// Stars and online gateways: a pending transaction and the provider's payment page. The
// provider's confirmation (bot webhook, /api/v1/payments/...) and the worker fulfil it.
void pay_later(Exchange& ex, pqxx::work& txn, const LockedAccount& locked, const Order& order, const std::string& method,
               const std::string& key, PurchaseOutcome& o) {
    const Settings& s = ex.settings();
    if (method != "stars") {
        // A browser buyer returns to the web cabinet, which then waits for this payment.
        const OnlinePayment p = open_online_payment(ex, txn, locked, order, method, key,
                                                    ex.web_session ? s.web_cabinet_url + "/" : std::string());
        o.transaction_id = p.transaction_id;
        o.payment_url = p.redirect_url;
        return;
    }
    o.transaction_id = insert_pending(txn, s, locked, order, method, key);
    const std::string title = order.grant.plan_name + ", " + std::to_string(order.grant.days) + " days";
    o.stars = true;
    o.payment_url = BotApi(s).create_invoice_link(title, "VPN subscription " + title, std::to_string(o.transaction_id),
                                                  order.quote.stars);
    exec_prepared(txn, "set_payment_checkout", o.transaction_id, "stars", "", o.payment_url);
}

}  // namespace

OnlinePayment open_online_payment(Exchange& ex, pqxx::work& txn, const LockedAccount& locked, const Order& order,
                                  const std::string& method, const std::string& key, const std::string& return_page) {
    const Settings& s = ex.settings();
    const auto gateway = make_gateway(method, s, &ex.shared.checkout_slots);
    if (!gateway) throw bad_request("payment method " + method + " is not available", "method_unavailable");
    OnlinePayment out;
    out.transaction_id = insert_pending(txn, s, locked, order, method, key);
    CheckoutRequest req;
    req.transaction_id = out.transaction_id;
    req.amount_minor = order.quote.final_minor;
    req.currency = locked.user.currency;
    req.description = "VPN subscription " + order.grant.plan_name + ", " + std::to_string(order.grant.days) + " days";
    req.idempotence_key = "tx-" + std::to_string(out.transaction_id);
    if (!return_page.empty())
        req.return_url = return_page + (return_page.find('?') == std::string::npos ? "?" : "&") + "payment=" +
                         std::to_string(out.transaction_id);
    const Checkout checkout = gateway->create(req);
    out.redirect_url = checkout.redirect_url;
    exec_prepared(txn, "set_payment_checkout", out.transaction_id, method, checkout.provider_payment_id, checkout.redirect_url);
    return out;
}

void post_purchase(Exchange& ex) {
    const Settings& s = ex.settings();
    const JsonBody body(ex.req);
    const std::string method = require_string(body, "method", 1, 32);
    const std::string key = idempotency_key(ex.req);
    const int64_t now = unix_now();

    const PurchaseOutcome out = ex.io.db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, ex.caller().user.id);
        if (!key.empty()) {
            const auto seen = exec_prepared(txn, "purchase_by_idempotency_key", locked.user.id, key);
            if (!seen.empty())
                throw ApiError(409, "purchase already processed: transaction " + std::string(seen[0]["id"].c_str()), "already_processed");
        }
        const auto catalog = locked.catalog_version ? ex.shared.catalog.exact_copy(*locked.catalog_version) : nullptr;
        const Order order = resolve_order(txn, s, locked, body, catalog.get());
        PurchaseOutcome o;
        if (method == "balance" || order.quote.final_minor == 0) pay_now(ex, txn, locked, order, method, key, o);
        else pay_later(ex, txn, locked, order, method, key, o);
        return o;
    });

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("transaction_id");
    w.Int64(out.transaction_id);
    if (!out.paid_with.empty()) {
        w.Key("paid_with");
        write_string(w, out.paid_with);
        w.Key("subscription");
        write_subscription(w, s, out.subscription, now);
    } else {
        w.Key(out.stars ? "invoice_link" : "redirect_url");
        write_string(w, out.payment_url);
    }
    w.EndObject();
}

}  // namespace cabinet::api
