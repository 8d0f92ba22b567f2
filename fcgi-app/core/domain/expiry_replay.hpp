#pragma once
// The expiry a subscription should have at least, from its paid purchases alone: the rule
// of services/subscription_grant.cpp replayed (days go on top of paid time still running,
// else start when the purchase completed). Free grants (promo days, referral bonus, trial)
// only ever add, so an expiry below this lost paid days, as the lost update of issue 12
// did. `cabinetctl repair-days` uses it for accounts hurt before the fix.
#include <cstdint>
#include <vector>

namespace cabinet {

struct PaidGrant {
    int64_t completed_at = 0;  // Unix seconds
    int64_t days = 0;
};

// `grants` oldest first. 0 when there are none.
int64_t replay_paid_expiry(const std::vector<PaidGrant>& grants);

// Whole days missing when the subscription expires at `actual` instead of `expected`:
// rounded to the nearest day (purchase times and grant times differ by the seconds a
// request took), 0 when nothing or less than half a day is missing.
int64_t missing_days(int64_t expected, int64_t actual);

}  // namespace cabinet
