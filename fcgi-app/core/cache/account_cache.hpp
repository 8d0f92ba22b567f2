#pragma once
// Accounts recently used in this pool process, so that a known caller's GET costs no
// statement (issue 17; docs/decisions.md "Accounts in memory"). Besides the account
// statement's row it keeps what /referral and /traffic read beside it, and the web sessions
// that ended lately (their access tokens are refused: app/authenticate.cpp).
//
// Never stale after a write its client was told of, and a few milliseconds at most otherwise:
// - every copy carries the host-wide stamp (cache/account_generations.hpp) read before it
//   was loaded, and is used only while the stamp still reads the same;
// - a request that wrote bumps its caller's slot after the commit and before the answer
//   (app/dispatch.cpp); an admin request that wrote bumps the epoch;
// - every other change (the worker, the bot, another host, psql) arrives as NOTIFY
//   accounts_changed from triggers (sql 0022) through the ChangeListener, which bumps the
//   slots it names, or the epoch for '*';
// - while this process's listener is not connected nothing is served from memory, and its
//   reconnection bumps the epoch (notifications may have been missed meanwhile);
// - a copy is dropped after ACCOUNT_CACHE_MAX_AGE_S whatever happens, and when a promo
//   discount it shows runs out; copies no longer served are freed as new ones come in.
// Never a source of truth for money or subscription state: writers lock and read the rows.
//
// Bounded by bytes (ACCOUNT_CACHE_MB), not by entries, so that a pool process stays under
// its memory target at any user count: entries are kept packed (cache/account_codec.hpp),
// each counted with its map node and heap blocks, and a full shard forgets its least
// recently used users first.
#include <array>
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "cache/account_generations.hpp"
#include "domain/account.hpp"
#include "domain/catalog.hpp"
#include "metrics/counter.hpp"

namespace cabinet {

class AccountCache {
public:
    // `generations` null, or `budget_bytes` 0: the cache is off and every lookup misses.
    // `meters`: where its lookups and its size are counted for /metrics (none by default).
    AccountCache(std::unique_ptr<AccountGenerations> generations, size_t budget_bytes, std::chrono::seconds max_age,
                 metrics::CacheCounters meters = {});
    AccountCache(const AccountCache&) = delete;
    AccountCache& operator=(const AccountCache&) = delete;

    // What to take before reading a user's rows from the database, and give back with
    // what was read. `ticket_for_telegram_id` knows the user from an earlier load; for one
    // it does not know, the load only teaches it the user (the next load is kept).
    struct Ticket {
        int64_t user_id = 0;  // 0: unknown
        AccountStamp stamp;
    };
    Ticket ticket_for_id(int64_t user_id) const;
    Ticket ticket_for_telegram_id(int64_t telegram_id) const;

    // A good copy, or nothing. The account's catalog_version is not set: the catalogue is
    // then as fresh as the catalogue listener keeps it (cache/catalog_cache.hpp).
    std::optional<Account> account_by_id(int64_t user_id) const;
    std::optional<Account> account_by_telegram_id(int64_t telegram_id) const;
    std::optional<ReferralStats> referral_stats(int64_t user_id) const;
    std::optional<std::vector<TrafficDay>> traffic_series(int64_t user_id) const;
    std::optional<std::vector<std::string>> ended_sessions(int64_t user_id) const;

    void keep_account(const Ticket& t, const Account& a) const;
    void keep_referral_stats(const Ticket& t, const ReferralStats& s) const;
    void keep_traffic_series(const Ticket& t, const std::vector<TrafficDay>& series) const;
    void keep_ended_sessions(const Ticket& t, const std::vector<std::string>& session_ids) const;

    // A write of this user committed here (bump its slot), or of many (the epoch).
    void wrote(int64_t user_id) const;
    void wrote_all() const;
    // NOTIFY accounts_changed's payload: user ids separated by commas, '*', or 'sync' (a
    // barrier: counted in the generations file, see AccountGenerations::count_sync).
    void notified(std::string_view payload) const;
    // The process's listener connected (true: the epoch is bumped, changes may have been
    // missed) or lost its connection (false: lookups miss until it is back).
    void set_listening(bool listening) const;

    bool enabled() const { return generations_ != nullptr; }

    // What the entries and the telegram index take, as counted against the budget (their
    // map nodes, the packed bytes and the allocator's headers): never more than the budget.
    size_t bytes_held() const;

private:
    // What is kept of a user, in one block: each part packed (cache/account_codec.hpp),
    // one after another. About 100 bytes of bookkeeping and 300 of data for a bench user.
    enum PartIndex : size_t { kAccount, kReferral, kTraffic, kSessions, kParts };
    struct Entry {
        // The shard's entries from the most to the least recently used (map nodes stay put).
        Entry* newer = nullptr;
        Entry* older = nullptr;
        int64_t user_id = 0;
        // The stamp every kept part was loaded under: stamps only grow, so a part loaded
        // under a newer one replaces the others (they can no longer be good), and a part
        // loaded under an older one is not kept (it raced a write).
        AccountStamp stamp;
        std::array<uint32_t, kParts> expires{};  // seconds since the cache was made, rounded down
        std::array<uint16_t, kParts> size{};     // packed bytes of each part; 0: not kept
        std::unique_ptr<char[]> packed;
        size_t charged() const;  // what it counts against its shard's budget
    };
    struct Shard {
        std::mutex mutex;
        std::unordered_map<int64_t, Entry> entries;         // by user id
        std::unordered_map<int64_t, int64_t> by_telegram;   // telegram id -> user id
        Entry* newest = nullptr;
        Entry* oldest = nullptr;
        size_t bytes = 0;  // counted against the shard's share of the budget
        void unlink(Entry& e);
        void push_newest(Entry& e);
    };
    static constexpr size_t kShards = 16;

    Shard& shard(int64_t key) const { return shards_[static_cast<uint64_t>(key) % kShards]; }
    bool usable() const;
    uint32_t seconds_since_made(std::chrono::steady_clock::time_point t) const;
    template <class Unpack>
    auto find(int64_t user_id, PartIndex part, Unpack unpack) const -> std::optional<decltype(unpack(""))>;
    void keep(const Ticket& t, PartIndex part, const std::string& packed, std::chrono::steady_clock::time_point expires) const;
    void fit(Shard& s) const;
    void drop_dead_oldest(Shard& s) const;
    // A shard's entries and bytes, taken before a change so that `publish` can add what
    // the change did to the meters' gauges.
    struct Size {
        size_t entries;
        size_t bytes;
    };
    static Size size_of(const Shard& s) { return {s.entries.size(), s.bytes}; }
    void publish(Size before, const Shard& s) const;
    void count(bool hit) const;  // a lookup, served from memory or not

    const std::unique_ptr<AccountGenerations> generations_;
    const size_t per_shard_bytes_;
    const std::chrono::seconds max_age_;
    const metrics::CacheCounters meters_;
    const std::chrono::steady_clock::time_point made_ = std::chrono::steady_clock::now();
    mutable std::array<Shard, kShards> shards_;
    mutable std::atomic<bool> listening_{false};
};

}  // namespace cabinet
