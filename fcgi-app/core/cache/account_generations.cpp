#include "cache/account_generations.hpp"

#include <atomic>

#include "util/host_file.hpp"

namespace cabinet {
namespace {

static_assert(std::atomic_ref<uint64_t>::is_always_lock_free, "the counters are shared between processes");

size_t slot_of(int64_t user_id) {
    return static_cast<size_t>(static_cast<uint64_t>(user_id) % AccountGenerations::kSlots);
}

}  // namespace

AccountGenerations::AccountGenerations(const std::string& path)
    : words_(map_host_file(path, (kFirstSlotWord + kSlots) * sizeof(uint64_t), "account generations")),
      bytes_((kFirstSlotWord + kSlots) * sizeof(uint64_t)) {}

AccountGenerations::~AccountGenerations() { unmap_host_file(words_, bytes_); }

uint64_t* AccountGenerations::counter(size_t index) const { return words_ + index; }

AccountStamp AccountGenerations::stamp(int64_t user_id) const {
    AccountStamp s;
    s.epoch = std::atomic_ref<uint64_t>(*counter(kEpochWord)).load(std::memory_order_acquire);
    s.slot = std::atomic_ref<uint64_t>(*counter(kFirstSlotWord + slot_of(user_id))).load(std::memory_order_acquire);
    return s;
}

void AccountGenerations::bump(int64_t user_id) const {
    std::atomic_ref<uint64_t>(*counter(kFirstSlotWord + slot_of(user_id))).fetch_add(1, std::memory_order_acq_rel);
}

void AccountGenerations::bump_all() const {
    std::atomic_ref<uint64_t>(*counter(kEpochWord)).fetch_add(1, std::memory_order_acq_rel);
}

void AccountGenerations::count_sync() const {
    std::atomic_ref<uint64_t>(*counter(kSyncWord)).fetch_add(1, std::memory_order_acq_rel);
}

}  // namespace cabinet
