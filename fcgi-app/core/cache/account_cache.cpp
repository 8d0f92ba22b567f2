#include "cache/account_cache.hpp"

#include <charconv>

#include "util/time.hpp"

namespace cabinet {
namespace {

using Clock = std::chrono::steady_clock;

// When a copy of this account must go at the latest: its age limit, or the end of the
// promo discount it shows (the statement works the discount out with now()).
Clock::time_point account_expiry(const Account& a, std::chrono::seconds max_age) {
    const auto now = Clock::now();
    auto expires = now + max_age;
    const User& u = a.user;
    if (u.promo_discount_pct > 0 && u.promo_discount_until > 0) {
        expires = std::min(expires, now + std::chrono::seconds(u.promo_discount_until - unix_now()));
    }
    return expires;
}

}  // namespace

AccountCache::AccountCache(std::unique_ptr<AccountGenerations> generations, size_t capacity, std::chrono::seconds max_age)
    : generations_(capacity > 0 ? std::move(generations) : nullptr),
      per_shard_(std::max<size_t>(1, capacity / kShards)),
      max_age_(max_age) {}

bool AccountCache::usable() const { return generations_ && listening_.load(std::memory_order_acquire); }

AccountCache::Ticket AccountCache::ticket_for_id(int64_t user_id) const {
    if (!usable()) return {};
    return {user_id, generations_->stamp(user_id)};
}

AccountCache::Ticket AccountCache::ticket_for_telegram_id(int64_t telegram_id) const {
    if (!usable()) return {};
    int64_t user_id = 0;
    {
        Shard& s = shard(telegram_id);
        std::lock_guard lock(s.mutex);
        if (auto it = s.by_telegram.find(telegram_id); it != s.by_telegram.end()) user_id = it->second;
    }
    if (user_id == 0) return {};
    return {user_id, generations_->stamp(user_id)};
}

template <class T>
std::optional<T> AccountCache::find(int64_t user_id, Part<T> Entry::*part) const {
    if (!usable()) return std::nullopt;
    const AccountStamp now_stamp = generations_->stamp(user_id);
    Shard& s = shard(user_id);
    std::lock_guard lock(s.mutex);
    auto it = s.entries.find(user_id);
    if (it == s.entries.end()) return std::nullopt;
    const Part<T>& p = it->second.*part;
    if (!p.value || p.stamp != now_stamp || Clock::now() >= p.expires) return std::nullopt;
    return p.value;
}

template <class T>
void AccountCache::keep(const Ticket& t, Part<T> Entry::*part, const T& value, Clock::time_point expires) const {
    if (t.user_id == 0 || !usable()) return;
    Shard& s = shard(t.user_id);
    std::lock_guard lock(s.mutex);
    auto it = s.entries.find(t.user_id);
    if (it == s.entries.end()) {
        // Full: one arbitrary copy goes. Hot accounts come back at the price of one read.
        if (s.entries.size() >= per_shard_) s.entries.erase(s.entries.begin());
        it = s.entries.emplace(t.user_id, Entry{}).first;
    }
    Part<T>& p = it->second.*part;
    p.value = value;
    p.stamp = t.stamp;
    p.expires = expires;
}

std::optional<Account> AccountCache::account_by_id(int64_t user_id) const {
    return find(user_id, &Entry::account);
}

std::optional<Account> AccountCache::account_by_telegram_id(int64_t telegram_id) const {
    const Ticket t = ticket_for_telegram_id(telegram_id);
    if (t.user_id == 0) return std::nullopt;
    auto a = find(t.user_id, &Entry::account);
    // The telegram id may have moved to another user since (account linking): that change
    // bumped both users, but the index is only a hint, so it is checked.
    if (!a || a->user.telegram_id != telegram_id) return std::nullopt;
    return a;
}

std::optional<ReferralStats> AccountCache::referral_stats(int64_t user_id) const {
    return find(user_id, &Entry::referral);
}

std::optional<std::vector<TrafficDay>> AccountCache::traffic_series(int64_t user_id) const {
    return find(user_id, &Entry::traffic);
}

void AccountCache::keep_account(const Ticket& t, const Account& a) const {
    if (!usable()) return;
    if (a.user.telegram_id) {
        Shard& s = shard(*a.user.telegram_id);
        std::lock_guard lock(s.mutex);
        if (s.by_telegram.size() >= per_shard_ && !s.by_telegram.contains(*a.user.telegram_id))
            s.by_telegram.erase(s.by_telegram.begin());
        s.by_telegram[*a.user.telegram_id] = a.user.id;
    }
    if (t.user_id != a.user.id) return;  // loaded for another user than the ticket knew
    Account kept = a;
    kept.catalog_version.reset();
    keep(t, &Entry::account, kept, account_expiry(a, max_age_));
}

void AccountCache::keep_referral_stats(const Ticket& t, const ReferralStats& s) const {
    keep(t, &Entry::referral, s, Clock::now() + max_age_);
}

void AccountCache::keep_traffic_series(const Ticket& t, const std::vector<TrafficDay>& series) const {
    keep(t, &Entry::traffic, series, Clock::now() + max_age_);
}

void AccountCache::wrote(int64_t user_id) const {
    if (generations_) generations_->bump(user_id);
}

void AccountCache::wrote_all() const {
    if (generations_) generations_->bump_all();
}

void AccountCache::notified(std::string_view payload) const {
    if (!generations_) return;
    if (payload == "sync") {  // changes nothing: says that what came before was handled
        generations_->count_sync();
        return;
    }
    bool any = false;
    while (!payload.empty()) {
        const size_t comma = payload.find(',');
        const std::string_view item = payload.substr(0, comma);
        int64_t id = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
        if (ec != std::errc{} || end != item.data() + item.size()) {  // '*', or what we can't read
            generations_->bump_all();
            return;
        }
        generations_->bump(id);
        any = true;
        payload = comma == std::string_view::npos ? std::string_view{} : payload.substr(comma + 1);
    }
    if (!any) generations_->bump_all();
}

void AccountCache::set_listening(bool listening) const {
    if (!generations_) return;
    if (listening) generations_->bump_all();
    listening_.store(listening, std::memory_order_release);
}

}  // namespace cabinet
