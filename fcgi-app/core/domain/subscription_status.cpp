#include "domain/subscription_status.hpp"

namespace cabinet {

std::string_view effective_status(const Subscription& s, int64_t now) {
    if (s.status == "disabled" || s.status == "pending") return s.status;
    if (s.expire_at <= now) return "expired";
    if (s.traffic_limit_bytes > 0 && s.traffic_used_bytes >= s.traffic_limit_bytes) return "limited";
    if (s.status == "expired" || s.status == "limited") return s.is_trial ? "trial" : "active";
    return s.status;
}

bool is_usable(const Subscription& s, int64_t now) {
    const auto st = effective_status(s, now);
    return st == "trial" || st == "active";
}

}  // namespace cabinet
