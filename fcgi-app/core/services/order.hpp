#pragma once
// What a purchase buys, resolved from the request and priced for the buyer with the same
// quote() that GET /plans and GET /constructor show (displayed = charged).
#include <pqxx/pqxx>

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

// Reads plan_id (integer or public_code) + days, or period_id + pack_id, per SALES_MODE.
// 400 for a malformed or wrong-mode body, 404 for an unknown or inactive plan/duration.
// Priced with the discounts `buyer` was read with under its lock (db/accounts_repo.hpp), so
// GET /plans' rule (discounts_for) and the charge agree. `catalog`: the process's copy when
// it is exactly the version `buyer` was read with (CatalogCache::exact_copy), which saves
// the plan statement; null reads the plans in `txn`.
Order resolve_order(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& buyer,
                    const rapidjson::Value& body, const Catalog* catalog = nullptr);

// Frozen copies stored on the transaction: what was bought, and how it was priced.
std::string order_snapshot_json(const Order& o);
std::string order_pricing_json(const Order& o);
// The grant a stored snapshot describes (the worker fulfils paid online orders from it).
GrantSpec grant_from_snapshot(const std::string& snapshot_json);

}  // namespace cabinet
