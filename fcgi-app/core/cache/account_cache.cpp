#include "cache/account_cache.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <utility>

#include "cache/account_codec.hpp"
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

// What glibc's malloc takes for a block of n bytes: n and its 8-byte header, in 16-byte
// steps, 32 at least. The budget counts this, not sizeof, so that it bounds the RSS.
constexpr size_t heap_block(size_t n) { return std::max<size_t>(32, (n + 8 + 15) & ~size_t{15}); }
// A node of an unordered_map<int64_t, V>: the next pointer and the pair, plus its bucket.
template <class V>
constexpr size_t map_node() { return heap_block(sizeof(void*) + sizeof(std::pair<const int64_t, V>)) + sizeof(void*); }

}  // namespace

void AccountCache::Shard::unlink(Entry& e) {
    (e.newer ? e.newer->older : newest) = e.older;
    (e.older ? e.older->newer : oldest) = e.newer;
    e.newer = e.older = nullptr;
}

void AccountCache::Shard::push_newest(Entry& e) {
    e.older = newest;
    e.newer = nullptr;
    (newest ? newest->newer : oldest) = &e;
    newest = &e;
}

AccountCache::AccountCache(std::unique_ptr<AccountGenerations> generations, size_t budget_bytes, std::chrono::seconds max_age,
                           metrics::CacheCounters meters)
    : generations_(budget_bytes > 0 ? std::move(generations) : nullptr),
      per_shard_bytes_(budget_bytes / kShards),
      max_age_(max_age),
      meters_(meters) {}

// Gauges as words that only get added to: a decrease is added as its two's complement,
// which the sum over the host's processes reads back as a signed total.
void AccountCache::publish(Size before, const Shard& s) const {
    meters_.entries.add(s.entries.size() - before.entries);
    meters_.bytes.add(s.bytes - before.bytes);
}

void AccountCache::count(bool hit) const { (hit ? meters_.hits : meters_.misses).add(); }

bool AccountCache::usable() const { return generations_ && listening_.load(std::memory_order_acquire); }

size_t AccountCache::bytes_held() const {
    size_t total = 0;
    for (Shard& s : shards_) {
        std::lock_guard lock(s.mutex);
        total += s.bytes;
    }
    return total;
}

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

size_t AccountCache::Entry::charged() const {
    size_t packed_bytes = 0;
    for (const uint16_t part_bytes : size) packed_bytes += part_bytes;
    return map_node<Entry>() + (packed_bytes ? heap_block(packed_bytes) : 0);
}

uint32_t AccountCache::seconds_since_made(Clock::time_point t) const {
    const auto s = std::chrono::duration_cast<std::chrono::seconds>(t - made_).count();
    return static_cast<uint32_t>(std::clamp<int64_t>(s, 0, UINT32_MAX));
}

template <class Unpack>
auto AccountCache::find(int64_t user_id, PartIndex part, Unpack unpack) const -> std::optional<decltype(unpack(""))> {
    if (!usable()) return std::nullopt;
    const AccountStamp now_stamp = generations_->stamp(user_id);
    // Both rounded down: a copy goes up to a second early, never late.
    const uint32_t now = seconds_since_made(Clock::now());
    Shard& s = shard(user_id);
    std::lock_guard lock(s.mutex);
    auto it = s.entries.find(user_id);
    if (it == s.entries.end()) return std::nullopt;
    Entry& e = it->second;
    if (e.size[part] == 0 || e.stamp != now_stamp || now >= e.expires[part]) return std::nullopt;
    s.unlink(e);
    s.push_newest(e);
    size_t offset = 0;
    for (size_t i = 0; i < part; ++i) offset += e.size[i];
    return unpack(std::string_view(e.packed.get() + offset, e.size[part]));
}

void AccountCache::keep(const Ticket& t, PartIndex part, const std::string& packed, Clock::time_point expires) const {
    if (t.user_id == 0 || !usable() || packed.empty() || packed.size() > UINT16_MAX) return;
    Shard& s = shard(t.user_id);
    std::lock_guard lock(s.mutex);
    const Size before = size_of(s);
    auto [it, added] = s.entries.try_emplace(t.user_id);
    Entry& e = it->second;
    const size_t was = added ? 0 : e.charged();
    if (added) {
        e.user_id = t.user_id;
        e.stamp = t.stamp;
    } else if (t.stamp != e.stamp) {
        if (t.stamp.epoch < e.stamp.epoch || t.stamp.slot < e.stamp.slot) return;  // raced a write
        e.size = {};
        e.stamp = t.stamp;
    }
    if (!added) s.unlink(e);
    s.push_newest(e);
    // The parts in one block again, this one replaced.
    std::array<uint16_t, kParts> sizes = e.size;
    sizes[part] = static_cast<uint16_t>(packed.size());
    size_t block_bytes = 0;
    for (const uint16_t part_bytes : sizes) block_bytes += part_bytes;
    auto block = std::make_unique<char[]>(block_bytes);
    for (size_t i = 0, from = 0, to = 0; i < kParts; from += e.size[i], to += sizes[i], ++i) {
        if (i == part) packed.copy(block.get() + to, sizes[i]);
        else std::copy_n(e.packed.get() + from, sizes[i], block.get() + to);
    }
    e.packed = std::move(block);
    e.size = sizes;
    e.expires[part] = seconds_since_made(expires);
    s.bytes = s.bytes - was + e.charged();
    fit(s);
    drop_dead_oldest(s);
    publish(before, s);
}

// A copy past its age or behind its stamp is never served again, but left alone it would
// stay until the budget pushed it out: a process that once held many users (a busy hour,
// users moving between processes) would sit near ACCOUNT_CACHE_MB for good. Each keep
// frees up to two such copies from the old end of the list, which is where the unused
// ones gather, so the cache shrinks back to the users still in use within about
// ACCOUNT_CACHE_MAX_AGE_S, at no cost to a request beyond two comparisons. The telegram
// index follows, loosely: its lines live in other shards than their users' entries, so a
// shard keeps up to twice as many lines as entries (and 64) before it drops one, lest a
// line of a user still in use go (which would cost that user one statement).
void AccountCache::drop_dead_oldest(Shard& s) const {
    const uint32_t now = seconds_since_made(Clock::now());
    for (int dropped = 0; dropped < 2 && s.oldest && s.oldest != s.newest; ++dropped) {
        Entry& old = *s.oldest;
        bool alive = false;
        for (size_t i = 0; i < kParts; ++i) alive = alive || (old.size[i] != 0 && now < old.expires[i]);
        if (alive && old.stamp == generations_->stamp(old.user_id)) break;
        s.unlink(old);
        s.bytes -= old.charged();
        s.entries.erase(old.user_id);
    }
    if (s.by_telegram.size() > 2 * s.entries.size() + 64) {
        s.by_telegram.erase(s.by_telegram.begin());
        s.bytes -= map_node<int64_t>();
    }
}

// Over its share: the telegram index's surplus goes first (it only saves a first miss),
// then the least recently used users. A lone entry larger than the share goes too.
void AccountCache::fit(Shard& s) const {
    while (s.bytes > per_shard_bytes_) {
        if (s.by_telegram.size() > s.entries.size() || !s.oldest) {
            if (s.by_telegram.empty()) return;
            s.by_telegram.erase(s.by_telegram.begin());
            s.bytes -= map_node<int64_t>();
            continue;
        }
        Entry& old = *s.oldest;
        s.unlink(old);
        s.bytes -= old.charged();
        s.entries.erase(old.user_id);
    }
}

std::optional<Account> AccountCache::account_by_id(int64_t user_id) const {
    auto a = find(user_id, kAccount, unpack_account);
    count(a.has_value());
    return a;
}

std::optional<Account> AccountCache::account_by_telegram_id(int64_t telegram_id) const {
    const Ticket t = ticket_for_telegram_id(telegram_id);
    if (t.user_id == 0) {
        count(false);
        return std::nullopt;
    }
    auto a = find(t.user_id, kAccount, unpack_account);
    // The telegram id may have moved to another user since (account linking): that change
    // bumped both users, but the index is only a hint, so it is checked.
    const bool hit = a && a->user.telegram_id == telegram_id;
    count(hit);
    if (!hit) return std::nullopt;
    return a;
}

std::optional<ReferralStats> AccountCache::referral_stats(int64_t user_id) const {
    auto s = find(user_id, kReferral, unpack_referral_stats);
    count(s.has_value());
    return s;
}

std::optional<std::vector<TrafficDay>> AccountCache::traffic_series(int64_t user_id) const {
    auto series = find(user_id, kTraffic, unpack_traffic_series);
    count(series.has_value());
    return series;
}

std::optional<std::vector<std::string>> AccountCache::ended_sessions(int64_t user_id) const {
    auto ids = find(user_id, kSessions, unpack_session_ids);
    count(ids.has_value());
    return ids;
}

void AccountCache::keep_account(const Ticket& t, const Account& a) const {
    if (!usable()) return;
    if (a.user.telegram_id) {
        Shard& s = shard(*a.user.telegram_id);
        std::lock_guard lock(s.mutex);
        if (s.by_telegram.insert_or_assign(*a.user.telegram_id, a.user.id).second) {
            const Size before = size_of(s);
            s.bytes += map_node<int64_t>();
            fit(s);
            publish(before, s);
        }
    }
    if (t.user_id != a.user.id) return;  // loaded for another user than the ticket knew
    keep(t, kAccount, pack_account(a), account_expiry(a, max_age_));
}

void AccountCache::keep_referral_stats(const Ticket& t, const ReferralStats& s) const {
    keep(t, kReferral, pack_referral_stats(s), Clock::now() + max_age_);
}

void AccountCache::keep_traffic_series(const Ticket& t, const std::vector<TrafficDay>& series) const {
    keep(t, kTraffic, pack_traffic_series(series), Clock::now() + max_age_);
}

void AccountCache::keep_ended_sessions(const Ticket& t, const std::vector<std::string>& session_ids) const {
    keep(t, kSessions, pack_session_ids(session_ids), Clock::now() + max_age_);
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
