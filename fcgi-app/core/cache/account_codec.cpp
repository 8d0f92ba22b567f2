#include "cache/account_codec.hpp"

#include <cstdint>
#include <stdexcept>

namespace cabinet {
namespace {

// Flags of an account, one bit each: the optionals' presence and the booleans.
enum Flag : uint64_t {
    kTelegramId = 1 << 0,
    kBlocked = 1 << 1,
    kTrialUsed = 1 << 2,
    kReferredBy = 1 << 3,
    kSubscription = 1 << 4,
    kIsTrial = 1 << 5,
    kSubscriptionUrl = 1 << 6,
    kAutopay = 1 << 7,
    kPlanId = 1 << 8,
    kEmail = 1 << 9,
};

class Writer {
public:
    void uint(uint64_t v) {
        while (v >= 0x80) {
            out_.push_back(static_cast<char>(v | 0x80));
            v >>= 7;
        }
        out_.push_back(static_cast<char>(v));
    }
    // Zigzag: small negative numbers stay short too.
    void sint(int64_t v) { uint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
    void str(std::string_view s) {
        uint(s.size());
        out_.append(s);
    }
    std::string done() { return std::move(out_); }

private:
    std::string out_;
};

class Reader {
public:
    explicit Reader(std::string_view in) : in_(in) {}
    uint64_t uint() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            const auto byte = static_cast<uint8_t>(next(1)[0]);
            v |= static_cast<uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) return v;
        }
        throw std::logic_error("account cache: a varint runs past 64 bits");
    }
    int64_t sint() {
        const uint64_t u = uint();
        return static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
    }
    std::string str() { return std::string(next(uint())); }

private:
    std::string_view next(size_t n) {
        if (n > in_.size()) throw std::logic_error("account cache: a packed entry ends early");
        const std::string_view s = in_.substr(0, n);
        in_.remove_prefix(n);
        return s;
    }
    std::string_view in_;
};

uint64_t flag(bool on, Flag f) { return on ? static_cast<uint64_t>(f) : 0; }

}  // namespace

std::string pack_account(const Account& a) {
    const User& u = a.user;
    const Subscription* s = a.subscription ? &*a.subscription : nullptr;
    Writer w;
    w.uint(flag(u.telegram_id.has_value(), kTelegramId) | flag(u.is_blocked, kBlocked) | flag(u.trial_used, kTrialUsed) |
           flag(u.referred_by.has_value(), kReferredBy) | flag(s, kSubscription) | flag(s && s->is_trial, kIsTrial) |
           flag(s && s->subscription_url, kSubscriptionUrl) | flag(s && s->autopay_enabled, kAutopay) |
           flag(s && s->plan_id, kPlanId) | flag(u.email.has_value(), kEmail));
    w.sint(u.id);
    if (u.telegram_id) w.sint(*u.telegram_id);
    if (u.email) w.str(*u.email);
    for (const std::string* f : {&u.username, &u.first_name, &u.last_name, &u.language, &u.currency, &u.referral_code})
        w.str(*f);
    w.sint(u.balance_minor);
    w.sint(u.personal_discount_pct);
    if (u.referred_by) w.sint(*u.referred_by);
    w.sint(u.group_discount_pct);
    w.sint(u.promo_discount_pct);
    w.sint(u.promo_discount_until);
    if (!s) return w.done();
    w.uint(static_cast<uint64_t>(s->status));
    for (const std::string* f : {&s->plan_name, &s->crypto_link, &s->panel_uuid, &s->short_uuid}) w.str(*f);
    if (s->subscription_url) w.str(*s->subscription_url);
    for (int64_t v : {s->start_at, s->expire_at, s->device_limit, s->traffic_limit_bytes, s->traffic_used_bytes,
                      s->link_reset_at, s->revision, s->traffic_synced_at})
        w.sint(v);
    if (s->plan_id) w.sint(*s->plan_id);
    return w.done();
}

Account unpack_account(std::string_view bytes) {
    Reader r(bytes);
    const uint64_t flags = r.uint();
    Account a;
    User& u = a.user;
    u.is_blocked = flags & kBlocked;
    u.trial_used = flags & kTrialUsed;
    u.id = r.sint();
    if (flags & kTelegramId) u.telegram_id = r.sint();
    if (flags & kEmail) u.email = r.str();
    for (std::string* f : {&u.username, &u.first_name, &u.last_name, &u.language, &u.currency, &u.referral_code})
        *f = r.str();
    u.balance_minor = r.sint();
    u.personal_discount_pct = r.sint();
    if (flags & kReferredBy) u.referred_by = r.sint();
    u.group_discount_pct = r.sint();
    u.promo_discount_pct = r.sint();
    u.promo_discount_until = r.sint();
    if (!(flags & kSubscription)) return a;
    Subscription& s = a.subscription.emplace();
    s.is_trial = flags & kIsTrial;
    s.autopay_enabled = flags & kAutopay;
    s.status = static_cast<SubscriptionStatus>(r.uint());
    for (std::string* f : {&s.plan_name, &s.crypto_link, &s.panel_uuid, &s.short_uuid}) *f = r.str();
    if (flags & kSubscriptionUrl) s.subscription_url = r.str();
    for (int64_t* v : {&s.start_at, &s.expire_at, &s.device_limit, &s.traffic_limit_bytes, &s.traffic_used_bytes,
                       &s.link_reset_at, &s.revision, &s.traffic_synced_at})
        *v = r.sint();
    if (flags & kPlanId) s.plan_id = r.sint();
    return a;
}

std::string pack_referral_stats(const ReferralStats& s) {
    Writer w;
    w.sint(s.invited_count);
    w.sint(s.earnings_minor);
    return w.done();
}

ReferralStats unpack_referral_stats(std::string_view bytes) {
    Reader r(bytes);
    ReferralStats s;
    s.invited_count = r.sint();
    s.earnings_minor = r.sint();
    return s;
}

// A cumulative series grows by a few GB a day at most: a day costs its growth's 4-5 bytes,
// not 16, and the days themselves nothing when they follow each other (as they do).
std::string pack_traffic_series(const std::vector<TrafficDay>& series) {
    bool consecutive = true;
    for (size_t i = 1; i < series.size(); ++i) consecutive = consecutive && series[i].day == series[i - 1].day + 1;
    Writer w;
    w.uint(series.size() << 1 | (consecutive ? 1 : 0));
    TrafficDay prev;
    for (size_t i = 0; i < series.size(); ++i) {
        const TrafficDay& d = series[i];
        if (!consecutive || i == 0) w.sint(static_cast<int64_t>(d.day) - prev.day);
        w.sint(static_cast<int64_t>(static_cast<uint64_t>(d.used_bytes) - static_cast<uint64_t>(prev.used_bytes)));
        prev = d;
    }
    return w.done();
}

std::vector<TrafficDay> unpack_traffic_series(std::string_view bytes) {
    Reader r(bytes);
    const uint64_t head = r.uint();
    const bool consecutive = head & 1;
    std::vector<TrafficDay> series(head >> 1);
    TrafficDay prev;
    for (size_t i = 0; i < series.size(); ++i) {
        TrafficDay& d = series[i];
        d.day = static_cast<int32_t>(consecutive && i > 0 ? prev.day + 1 : prev.day + r.sint());
        d.used_bytes = static_cast<int64_t>(static_cast<uint64_t>(prev.used_bytes) + static_cast<uint64_t>(r.sint()));
        prev = d;
    }
    return series;
}

std::string pack_session_ids(const std::vector<std::string>& ids) {
    Writer w;
    w.uint(ids.size());
    for (const std::string& id : ids) w.str(id);
    return w.done();
}

std::vector<std::string> unpack_session_ids(std::string_view bytes) {
    Reader r(bytes);
    std::vector<std::string> ids(r.uint());
    for (std::string& id : ids) id = r.str();
    return ids;
}

}  // namespace cabinet
