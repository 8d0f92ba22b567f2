#pragma once
// A purchase settled on the spot, under the buyer's row lock: from the balance, or free at
// a 100 % discount. POST /purchase and autopay both end here, so a renewal and a tap on
// "buy" write the same things: the panel first (a panel failure leaves nothing written),
// then in one statement (sql 0024 settle_purchase) the purchase row, the money
// (ledger_move), the subscription, the promo offer the price used, the referrer's reward.
#include <pqxx/pqxx>

#include <string>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "panel/panel_client.hpp"
#include "services/order.hpp"

namespace cabinet {

struct SettledPurchase {
    int64_t transaction_id = 0;
    Subscription subscription;
};

struct Settlement {
    std::string method;           // balance | free
    std::string description;      // the purchase row's description
    std::string idempotency_key;  // empty: none
    std::string source;           // subscription history: purchase | autopay
    LedgerReason reason = LedgerReason::purchase;
};

// The caller has checked that the balance read under the lock covers the price.
SettledPurchase settle_purchase(pqxx::work& txn, PanelClient& panel, const Settings& s, const LockedAccount& locked,
                                const Order& order, const Settlement& how);

// A promo discount is for one purchase: the one whose price used it (`promo_pct` > 0).
void consume_promo_offer_if_used(pqxx::work& txn, int64_t user_id, int64_t promo_pct);

}  // namespace cabinet
