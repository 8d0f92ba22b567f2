#include "domain/subscription_status.hpp"

#include "util/enum_text.hpp"

namespace cabinet {
namespace {

constexpr std::string_view kTexts[] = {"trial", "active", "limited", "expired", "disabled", "pending"};
constexpr EnumText<SubscriptionStatus, std::size(kTexts)> kStatus{kTexts, "subscription status"};

}  // namespace

std::string_view to_text(SubscriptionStatus s) { return kStatus.text(s); }

SubscriptionStatus subscription_status_from_text(std::string_view text) { return kStatus.from(text); }

SubscriptionStatus effective_status(const Subscription& s, int64_t now) {
    using enum SubscriptionStatus;
    if (s.status == disabled || s.status == pending) return s.status;
    if (s.expire_at <= now) return expired;
    if (s.traffic_limit_bytes > 0 && s.traffic_used_bytes >= s.traffic_limit_bytes) return limited;
    if (s.status == expired || s.status == limited) return s.is_trial ? trial : active;
    return s.status;
}

bool is_usable(const Subscription& s, int64_t now) {
    const auto st = effective_status(s, now);
    return st == SubscriptionStatus::trial || st == SubscriptionStatus::active;
}

}  // namespace cabinet
