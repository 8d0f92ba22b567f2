#include "domain/expiry_replay.hpp"

#include <algorithm>

#include "util/time.hpp"

namespace cabinet {

int64_t replay_paid_expiry(const std::vector<PaidGrant>& grants) {
    int64_t expire = 0;
    for (const PaidGrant& g : grants) expire = std::max(expire, g.completed_at) + g.days * kSecondsPerDay;
    return expire;
}

int64_t missing_days(int64_t expected, int64_t actual) {
    if (expected <= actual) return 0;
    return (expected - actual + kSecondsPerDay / 2) / kSecondsPerDay;
}

}  // namespace cabinet
