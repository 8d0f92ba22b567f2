#pragma once
// Subscription states (docs/decisions.md "Subscription states"):
//   trial | active  -- running, paid or trial
//   limited         -- traffic limit reached (the panel stops traffic)
//   expired         -- expire_at has passed
//   disabled        -- switched off by an admin; stays so until an admin enables it
//   pending         -- the first online payment is still open
// The stored status is the last one written (by purchase, trial, the sync job); time and
// traffic move faster than the sync, so readers derive the effective one with this rule.
#include <cstdint>
#include <string_view>

#include "domain/account.hpp"

namespace cabinet {

// The one conversion each way between the state and the column's (and the API's) text.
std::string_view to_text(SubscriptionStatus s);
// std::invalid_argument for a text that is no state (the column's CHECK allows none).
SubscriptionStatus subscription_status_from_text(std::string_view text);

SubscriptionStatus effective_status(const Subscription& s, int64_t now);
// A subscription that still gives access: trial, active (limited still has time left).
bool is_usable(const Subscription& s, int64_t now);

}  // namespace cabinet
