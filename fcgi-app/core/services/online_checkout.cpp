#include "services/online_checkout.hpp"

#include <spdlog/spdlog.h>

#include "db/prepared.hpp"
#include "errors.hpp"
#include "telegram/bot_api.hpp"

namespace cabinet {
namespace {

// The pending transaction and its promo hold (an older unpaid invoice loses it).
int64_t insert_pending(pqxx::work& txn, const Settings& s, const LockedAccount& locked, const Order& order,
                       const std::string& method, const std::string& key) {
    const auto id = exec_prepared(txn, "insert_purchase", locked.user.id, "pending", order.quote.final_minor,
                                  locked.user.currency, method, order_snapshot_json(order),
                                  order_pricing_json(order), order.grant.plan_name, key, s.payment_pending_ttl_s);
    const int64_t transaction_id = id[0][0].as<int64_t>();
    if (order.discounts.promo_pct > 0) exec_prepared(txn, "reserve_promo_offer", locked.user.id, transaction_id);
    return transaction_id;
}

// The provider failed: what step 1 wrote goes. The promo hold goes with the row (ON DELETE
// SET NULL), so an older unpaid invoice of the buyer holds its discount again while the
// offer stands (payment_offer_holds).
void withdraw(Db& db, const PaymentReservation& r) {
    db.write([&](pqxx::work& txn) {
        exec_prepared0(txn, "withdraw_reserved_payment", r.transaction_id, r.user_id);
        if (r.made_user_id) {
            exec_prepared(txn, "lock_made_account", r.made_user_id);
            exec_prepared0(txn, "withdraw_made_account", r.made_user_id);
        }
    });
}

}  // namespace

PaymentReservation reserve_payment(pqxx::work& txn, const Settings& s, const LockedAccount& locked, const Order& order,
                                   const std::string& method, const std::string& key, const std::string& return_page) {
    if (method != "stars" && !make_gateway(method, s))
        throw bad_request("payment method " + method + " is not available", "method_unavailable");
    PaymentReservation r;
    r.user_id = locked.user.id;
    r.method = method;
    r.transaction_id = insert_pending(txn, s, locked, order, method, key);
    const std::string title = order.grant.plan_name + ", " + std::to_string(order.grant.days) + " days";
    if (method == "stars") {
        r.invoice_title = title;
        r.stars = order.quote.stars;
        return r;
    }
    CheckoutRequest& req = r.checkout;
    req.transaction_id = r.transaction_id;
    req.amount_minor = order.quote.final_minor;
    req.currency = locked.user.currency;
    req.description = "VPN subscription " + title;
    req.idempotence_key = "tx-" + std::to_string(r.transaction_id);
    if (!return_page.empty())
        req.return_url = return_page + (return_page.find('?') == std::string::npos ? "?" : "&") + "payment=" +
                         std::to_string(r.transaction_id);
    return r;
}

std::string open_checkout(Db& db, const Settings& s, const CallSlots* slots, const PaymentReservation& r,
                          const std::function<void(pqxx::work&)>& also) {
    Checkout page;
    try {
        if (r.method == "stars") {
            page.redirect_url = BotApi(s).create_invoice_link(r.invoice_title, "VPN subscription " + r.invoice_title,
                                                              std::to_string(r.transaction_id), r.stars);
        } else {
            const auto gateway = make_gateway(r.method, s, slots);
            if (!gateway) throw GatewayError("payment method " + r.method + " was switched off");
            page = gateway->create(r.checkout);
        }
    } catch (...) {
        try {
            withdraw(db, r);
        } catch (const std::exception& e) {  // it ends unpaid at its expiry instead
            spdlog::error("payment {}: the provider failed and its reservation stays until it expires: {}",
                          r.transaction_id, e.what());
        }
        throw;
    }
    db.write([&](pqxx::work& txn) {
        exec_prepared0(txn, "set_payment_checkout", r.transaction_id, r.method, page.provider_payment_id,
                       page.redirect_url);
        if (also) also(txn);
    });
    return page.redirect_url;
}

}  // namespace cabinet
