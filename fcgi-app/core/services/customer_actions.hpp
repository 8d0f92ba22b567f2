#pragma once
// What the owner (or support) does to one customer from their card (POST
// /api/admin/customers/{id}/{action}; docs/api.md "Customers"). Each action:
//   - is done once per Idempotency-Key: the key is claimed in the action's transaction, so a
//     second request with it waits for the first, then gets its answer and changes nothing;
//   - carries the owner's reason, kept in the audit log entry (entity "user:<id>") with
//     what changed, written in the same transaction;
//   - moves money only through the ledger (reason `admin`, the reason as the row's note),
//     and time only through the grant path of a purchase (panel first, under the
//     customer's row lock, put back on the panel if the transaction fails).
// Bad input is an ApiError (422 naming the field, 404, 409) and nothing is written.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

enum class CustomerActionKind {
    balance,        // amount: minor units, + credit / - charge
    extend,         // amount: days on the current plan
    grant,          // amount: days of plan `text` (its public code)
    discount,       // amount: personal discount percent
    promo_group,    // text: the group's name; none: out of any group
    reset_devices,  // every HWID device the panel has seen
    unbind_device,  // text: the device's hwid
    reset_link,     // a new subscription link; the old one stops working
    block,
    unblock,
    sync,     // the panel's view copied here (a worker job)
    message,  // text: sent by the bot (a worker job)
};

// The action of a route's last path segment ("reset-devices"); nullopt for none.
std::optional<CustomerActionKind> customer_action_named(const std::string& name);
const char* customer_action_name(CustomerActionKind k);

struct CustomerAction {
    CustomerActionKind kind = CustomerActionKind::block;
    std::string reason;  // 1..500 characters
    int64_t amount = 0;
    std::optional<std::string> text;
};

struct ActionCall {
    std::string idempotency_key;  // 1..100 characters
    std::string actor;            // admin_actor(): who, for the audit log
    int64_t user_id = 0;
};

// Checks the input (422 naming the field) without touching the database.
void check_customer_action(const CustomerAction& a);

struct ActionAnswer {
    std::string json;       // {"action": name, "customer": <the list's shape, after it>}
    bool replayed = false;  // the key's first answer, given again; nothing was done now
};
// Does it (once per key). A key used before for another action or customer: ApiError 409.
ActionAnswer run_customer_action(pqxx::work& txn, PanelClient& panel, const Settings& s, const ActionCall& call,
                                 const CustomerAction& a);
// The same in a transaction of its own (Db::transact: the panel is called inside, never twice).
ActionAnswer run_customer_action(Db& db, PanelClient& panel, const Settings& s, const ActionCall& call,
                                 const CustomerAction& a);

}  // namespace cabinet
