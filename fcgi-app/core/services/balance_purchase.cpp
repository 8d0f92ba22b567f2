#include "services/balance_purchase.hpp"

#include <stdexcept>

#include "db/ledger_repo.hpp"
#include "services/referral_commission.hpp"

namespace cabinet {

void consume_promo_offer_if_used(pqxx::work& txn, int64_t user_id, int64_t promo_pct) {
    if (promo_pct > 0) txn.exec_prepared("consume_promo_offer", user_id);
}

SettledPurchase settle_purchase(pqxx::work& txn, PanelClient& panel, const Settings& s, const LockedAccount& locked,
                                const Order& order, const Settlement& how) {
    const int64_t price = order.quote.final_minor;
    const pqxx::row settled = txn.exec_prepared1(
        "insert_settled_purchase", locked.user.id, price, locked.user.currency, how.method, order_snapshot_json(order),
        order_pricing_json(order), how.description, how.idempotency_key, std::string(ledger_reason_name(how.reason)));
    SettledPurchase out;
    out.transaction_id = settled[0].as<int64_t>();
    if (price > 0 && settled[1].is_null())
        throw std::logic_error("balance read under the lock no longer covers the price");
    GrantSpec grant = order.grant;
    grant.source = how.source;
    grant.transaction_id = out.transaction_id;
    out.subscription = grant_subscription(txn, panel, locked, grant);
    consume_promo_offer_if_used(txn, locked.user.id, order.discounts.promo_pct);
    reward_referrer(txn, s, locked.user, price, out.transaction_id);
    return out;
}

}  // namespace cabinet
