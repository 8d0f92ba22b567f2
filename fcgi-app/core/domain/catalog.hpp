#pragma once
// The shop's catalogue as plain values: plans with their durations, the constructor price
// list, and the per-user read models of GET /referral and GET /payments. Pure, no I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "domain/account.hpp"
#include "domain/pricing.hpp"

namespace cabinet {

struct PlanDuration {
    int64_t days = 0;
    int64_t months = 0;
    int64_t price_minor = 0;  // list price
};

struct Plan {
    int64_t id = 0;
    std::string public_code;
    std::string name;
    std::string description;
    std::optional<int64_t> traffic_limit_bytes;  // nullopt = unlimited (NULL or 0 in the table)
    int64_t device_limit = 1;
    std::vector<PlanDuration> durations;  // by days, never empty
};

struct ConstructorPeriod {
    int64_t id = 0;
    int64_t days = 0;
    int64_t months = 0;
    int64_t price_minor = 0;  // list price
};

struct TrafficPack {
    int64_t id = 0;
    int64_t gb = 0;  // 0 = unlimited
    int64_t price_minor = 0;  // list price
};

struct ConstructorPriceList {
    std::vector<ConstructorPeriod> periods;  // by days
    std::vector<TrafficPack> packs;          // by gb, unlimited (0) last
};

// A sale's window and discount; the largest running one applies (sales may overlap).
struct Sale {
    int64_t starts_at = 0;  // Unix seconds, inclusive
    int64_t ends_at = 0;    // Unix seconds, exclusive
    int64_t discount_pct = 0;
};

// The discount of the sales running at `now`, 0 when none: as SQL's
// max(discount_pct) WHERE starts_at <= now() AND ends_at > now().
int64_t running_sale_pct(const std::vector<Sale>& sales, int64_t now);

struct ReferralStats {
    int64_t invited_count = 0;
    int64_t earnings_minor = 0;
};

struct PaymentItem {
    int64_t id = 0;
    std::string type;
    std::string status;
    int64_t amount_minor = 0;
    std::string currency;
    std::string method;
    int64_t created_at = 0;  // Unix seconds
    int64_t expires_at = 0;  // an open (pending, unpaid) payment's end, Unix seconds; else 0
};

// Every discount that applies to `u` right now: personal, promo group, an unexpired
// promo-code offer (already filtered by the account query) and the largest running sale.
// quote() adds them up and caps the sum at 100 %.
inline Discounts discounts_for(const User& u, int64_t running_sale_pct) {
    Discounts d{u.personal_discount_pct, u.group_discount_pct, 0, running_sale_pct};
    // A promo offer is for one purchase, used up by the one whose price it lowers: when the
    // other discounts reach 100 % already it lowers nothing, and so stays for the next one.
    if (d.total_pct() < 100) d.promo_pct = u.promo_discount_pct;
    return d;
}

// A constructor order is a period plus a pack. The client shows each row's quote and adds
// them, so the charge is the sum of the two quotes (never quote(sum), which can round one
// minor unit differently); stars are ceil(sum / rate) like any other price.
inline Quote constructor_quote(int64_t period_list_minor, int64_t pack_list_minor, const Discounts& d,
                               int64_t stars_rate_minor) {
    const Quote period = quote(period_list_minor, d, stars_rate_minor);
    const Quote pack = quote(pack_list_minor, d, stars_rate_minor);
    Quote total = quote(period.final_minor + pack.final_minor, Discounts{}, stars_rate_minor);
    total.list_minor = period_list_minor + pack_list_minor;
    total.discount_pct = period.discount_pct;
    return total;
}

}  // namespace cabinet
