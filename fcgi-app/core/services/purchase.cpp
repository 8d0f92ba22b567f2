#include "services/purchase.hpp"

#include <optional>

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "services/balance_purchase.hpp"
#include "services/online_checkout.hpp"

namespace cabinet {
namespace {

// Balance and free orders are fulfilled here, under the buyer's lock, with the balance as
// read under the lock (services/balance_purchase).
void pay_now(pqxx::work& txn, const PurchaseDeps& d, const LockedAccount& locked, const Order& order,
             const PurchaseRequest& req, PurchaseResult& o) {
    const Settings& s = d.settings;
    const int64_t price = order.quote.final_minor;
    o.paid_with = price == 0 ? "free" : "balance";
    // A free order is a free grant: like the trial and a promo code's days, it never lifts
    // the owner's block (docs/decisions.md "Free grants never lift the owner's block"); a paid
    // one may.
    if (price == 0 && locked.subscription && locked.subscription->status == SubscriptionStatus::disabled)
        throw ApiError(409, "the subscription is disabled", "subscription_disabled");
    if (o.paid_with == "balance") {
        if (!s.balance_enabled) throw bad_request("paying from the balance is switched off", "balance_off");
        if (locked.user.balance_minor < price) throw ApiError(402, "balance insufficient", "insufficient_balance");
    }
    const SettledPurchase done = settle_purchase(
        txn, d.panel, s, locked, order,
        Settlement{o.paid_with == "free" ? "free" : req.method, order.grant.plan_name, req.idempotency_key, "purchase",
                   LedgerReason::purchase});
    o.transaction_id = done.transaction_id;
    o.subscription = done.subscription;
}

}  // namespace

PurchaseResult purchase(const PurchaseDeps& d, const PurchaseRequest& req) {
    const Settings& s = d.settings;
    PurchaseResult out;
    // Under the lock: the order priced, and either settled or reserved for a provider.
    const std::optional<PaymentReservation> reserved = d.db.transact([&](pqxx::work& txn) -> std::optional<PaymentReservation> {
        const LockedAccount locked = lock_account(txn, req.user_id);
        if (!req.idempotency_key.empty()) {
            const auto seen = exec_prepared(txn, "purchase_by_idempotency_key", locked.user.id, req.idempotency_key);
            if (!seen.empty())
                throw ApiError(409, "purchase already processed: transaction " + std::string(seen[0]["id"].c_str()),
                               "already_processed");
        }
        const auto catalog = locked.catalog_version ? d.catalog.exact_copy(*locked.catalog_version) : nullptr;
        const Order order = resolve_order(txn, s, locked, req.choice, catalog.get());
        if (req.method == "balance" || order.quote.final_minor == 0) {
            pay_now(txn, d, locked, order, req, out);
            return std::nullopt;
        }
        return reserve_payment(txn, s, locked, order, req.method, req.idempotency_key,
                               req.method == "stars" ? std::string() : req.return_page);
    });
    if (!reserved) return out;
    // No lock held from here: the provider may take its time.
    out.transaction_id = reserved->transaction_id;
    out.stars = reserved->method == "stars";
    out.payment_url = open_checkout(d.db, s, d.checkout_slots, *reserved);
    return out;
}

}  // namespace cabinet
