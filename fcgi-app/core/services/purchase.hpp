#pragma once
// POST /purchase's flow (SPEC "POST /purchase"): buy or renew in the shop's sales mode.
// Paid from the balance (or free at a 100 % discount) it is fulfilled at once, panel first,
// under the buyer's row lock: 402 when the balance is short, 502 when the panel is down, and
// in both cases nothing is charged. Stars and online gateways only open a pending payment
// (services/online_checkout.hpp: the provider is asked after the lock is released), payable
// for PAYMENT_PENDING_TTL_S; their confirmation and the worker fulfil it. A repeated
// idempotency key is a 409 naming the first purchase.
#include <cstdint>
#include <string>

#include "cache/catalog_cache.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/account.hpp"
#include "net/call_slots.hpp"
#include "panel/panel_client.hpp"
#include "services/order.hpp"

namespace cabinet {

struct PurchaseRequest {
    int64_t user_id = 0;
    OrderChoice choice;
    std::string method;           // balance | stars | a gateway's id
    std::string idempotency_key;  // empty: none
    // Where a gateway sends the buyer back ("" its own default: the mini-app).
    std::string return_page;
};

struct PurchaseResult {
    int64_t transaction_id = 0;
    std::string paid_with;    // balance | free; empty for a payment still to be made
    std::string payment_url;  // stars: the invoice link; a gateway: its payment page
    bool stars = false;
    Subscription subscription;  // as it became, when paid_with is set
};

// What a purchase works with: the thread's connections and the process's shared parts.
struct PurchaseDeps {
    Db& db;
    PanelClient& panel;
    const Settings& settings;
    const CatalogCache& catalog;
    const CallSlots* checkout_slots;  // null: no limit (tools, tests)
};

PurchaseResult purchase(const PurchaseDeps& deps, const PurchaseRequest& req);

}  // namespace cabinet
