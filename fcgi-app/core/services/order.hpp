#pragma once
// What a purchase buys, resolved from the request and priced for the buyer with the same
// quote() that GET /plans and GET /constructor show (displayed = charged).
#include <pqxx/pqxx>

#include <optional>
#include <string>

#include "cache/catalog_cache.hpp"
#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "domain/account.hpp"
#include "domain/pricing.hpp"
#include "services/subscription_grant.hpp"
#include "util/json.hpp"

namespace cabinet {

struct Order {
    std::string mode;        // plans | constructor
    GrantSpec grant;         // what the subscription becomes (days, limits, plan)
    int64_t period_id = 0;   // constructor
    int64_t pack_id = 0;     // constructor
    int64_t pack_gb = 0;     // constructor, 0 = unlimited
    Quote quote;
    Discounts discounts;
};

// What the buyer asked for: a plan (by id or public code) for a number of days, or the
// constructor's period + traffic pack. Read from a request by the handler
// (api/order_choice.hpp), or from the last purchase by autopay.
struct OrderChoice {
    bool constructor = false;       // period + pack (SALES_MODE=constructor), else a plan
    std::optional<int64_t> plan_id; // a plan by id, or
    std::string plan_code;          // by its public code
    int64_t days = 0;
    int64_t period_id = 0;
    int64_t pack_id = 0;
};

// The choice priced. 400 `sales_mode_changed` for a choice of the mode the shop no longer
// sells, 400 `plan_unavailable` for an unknown or inactive plan, duration, period or pack.
// Priced with the discounts `buyer` was read with under its lock (db/accounts_repo.hpp), so
// GET /plans' rule (discounts_for) and the charge agree. `catalog`: the process's copy when
// it is exactly the version `buyer` was read with (CatalogCache::exact_copy), which saves
// the plan statement; null reads the plans in `txn`.
Order resolve_order(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& buyer,
                    const OrderChoice& choice, const Catalog* catalog = nullptr);

// Frozen copies stored on the transaction: what was bought, and how it was priced.
std::string order_snapshot_json(const Order& o);
std::string order_pricing_json(const Order& o);
// The grant a stored snapshot describes (the worker fulfils paid online orders from it).
GrantSpec grant_from_snapshot(const std::string& snapshot_json);

}  // namespace cabinet
