#pragma once
// Panel-first subscription writes (DESIGN "Data rules"): compute the new absolute state,
// write it to the panel, then write it locally in the caller's transaction, which already
// holds the user's row lock. A panel failure throws PanelError before anything local is
// written, so the transaction rolls back whole: no time granted, no money taken.
#include <pqxx/pqxx>

#include <optional>
#include <string>

#include "domain/account.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

struct GrantSpec {
    int64_t days = 0;
    bool trial = false;
    // What the subscription becomes; ignored by an extension that keeps the current plan.
    std::optional<int64_t> plan_id;
    std::string plan_name;
    std::string plan_code;
    int64_t traffic_limit_bytes = 0;  // 0 = unlimited
    int64_t device_limit = 1;
    bool keep_current_plan = false;   // "days" promo: more time on the same terms
};

// Days are added to what is left of a running subscription, or start now.
Subscription grant_subscription(pqxx::work& txn, PanelClient& panel, const Account& locked, const GrantSpec& spec,
                                int64_t now);

// Ensures the panel user exists with `state` and returns it (by stored uuid, else by
// Telegram id, else newly created).
PanelUser ensure_panel_user(PanelClient& panel, const Account& account, const PanelUserState& state);

}  // namespace cabinet
