#pragma once
// What the service knows about a user and their subscription, as plain values.
#include <cstdint>
#include <optional>
#include <string>

namespace cabinet {

// A subscription's state as stored (the `status` column; docs/decisions.md "Subscription
// states"): text only at the edges, through domain/subscription_status.hpp.
enum class SubscriptionStatus : uint8_t { trial, active, limited, expired, disabled, pending };

struct Subscription {
    SubscriptionStatus status = SubscriptionStatus::active;  // as stored; see effective_status()
    bool is_trial = false;
    std::string plan_name;
    int64_t start_at = 0;   // Unix seconds
    int64_t expire_at = 0;  // Unix seconds
    int64_t device_limit = 0;
    int64_t traffic_limit_bytes = 0;  // 0 = unlimited
    int64_t traffic_used_bytes = 0;
    std::optional<std::string> subscription_url;
    std::string crypto_link;
    bool autopay_enabled = false;
    std::optional<int64_t> plan_id;
    std::string panel_uuid;  // empty until the panel user exists
    std::string short_uuid;
    int64_t link_reset_at = 0;  // last link rotation, Unix seconds; 0 = never
    int64_t revision = 0;       // bumped by every UPDATE of the row: a write names the one it read
    int64_t traffic_synced_at = 0;  // when traffic_used_bytes was copied from the panel; 0 = never
    bool operator==(const Subscription&) const = default;
};

struct User {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string username;
    std::string first_name;
    std::string last_name;
    std::string language;
    std::optional<std::string> email;  // the e-mail sign-in's address, once verified (linked)
    std::string currency;
    int64_t balance_minor = 0;
    std::string referral_code;
    int64_t personal_discount_pct = 0;
    bool is_blocked = false;
    bool trial_used = false;
    std::optional<int64_t> referred_by;
    int64_t group_discount_pct = 0;  // of the user's promo group
    int64_t promo_discount_pct = 0;  // a promo-code offer still valid now
    int64_t promo_discount_until = 0;  // when that offer ends, Unix seconds; 0 = never or none
    bool operator==(const User&) const = default;
};

// The authenticated caller: the user row and their subscription, read in one query.
struct Account {
    User user;
    std::optional<Subscription> subscription;
    // The catalogue's version as the same statement saw it (sql 0020): a process's cached
    // catalogue older than this is reloaded before it answers (cache/catalog_cache.hpp).
    // Not set on an account answered from memory (cache/account_cache.hpp).
    std::optional<int64_t> catalog_version;
    bool operator==(const Account&) const = default;
};

// One day of GET /traffic's chart: the cumulative bytes used by the end of `day`.
struct TrafficDay {
    int32_t day = 0;  // days since 1970-01-01 (UTC); shown as YYYY-MM-DD
    int64_t used_bytes = 0;
    bool operator==(const TrafficDay&) const = default;
};

}  // namespace cabinet
