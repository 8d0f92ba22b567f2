#pragma once
// One host's account generations: a small file mapped into every pool process of the host,
// so that a write acknowledged by one process is seen by the account caches of all the others
// before its answer leaves (cache/account_cache.hpp, docs/decisions.md "Accounts in memory").
//
// Layout, 64-bit words: the epoch (bumped to forget every account), the count of `sync`
// notifications the host's listeners have seen, and 65,536 slots; user id u maps to slot
// u mod 65,536, and bumping it forgets every account of that slot. A copy is good while
// the epoch and its slot still read what they read before the copy was loaded.
// Counters only ever grow; sharing a slot, or the file with another stack, only costs misses.
#include <cstddef>
#include <cstdint>
#include <string>

namespace cabinet {

struct AccountStamp {
    uint64_t epoch = 0;
    uint64_t slot = 0;
    bool operator==(const AccountStamp&) const = default;
};

class AccountGenerations {
public:
    static constexpr size_t kSlots = 1u << 16;

    // Opens (creating, mode 0600) and maps `path`. Throws std::runtime_error when it can't.
    explicit AccountGenerations(const std::string& path);
    ~AccountGenerations();
    AccountGenerations(const AccountGenerations&) = delete;
    AccountGenerations& operator=(const AccountGenerations&) = delete;

    // Read before a load: the copy loaded after it is good while stamp() returns the same.
    AccountStamp stamp(int64_t user_id) const;
    // After a write of the user's rows has committed, before it is acknowledged.
    void bump(int64_t user_id) const;
    // Every account on the host is to be read again.
    void bump_all() const;
    // A listener has handled everything notified before a `sync` notification (which a
    // writer outside the pool sends and then waits for: the integration tests' SQL).
    void count_sync() const;

    static constexpr size_t kEpochWord = 0;
    static constexpr size_t kSyncWord = 1;
    static constexpr size_t kFirstSlotWord = 2;

private:
    uint64_t* counter(size_t index) const;

    uint64_t* words_ = nullptr;
    size_t bytes_ = 0;
};

}  // namespace cabinet
