#include "metrics/host_metrics.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <stdexcept>

#include "util/host_file.hpp"

namespace cabinet::metrics {
namespace {

static_assert(std::atomic_ref<uint64_t>::is_always_lock_free, "the counters are shared between processes");

constexpr uint64_t kMagic = 0x31525445'4d424143ull;  // "CABMETR1", little-endian
enum BlockWord : size_t { kOwner = 0, kLayout = 1 };

uint64_t load(const uint64_t& w) { return std::atomic_ref<uint64_t>(const_cast<uint64_t&>(w)).load(std::memory_order_acquire); }
void store(uint64_t& w, uint64_t v) { std::atomic_ref<uint64_t>(w).store(v, std::memory_order_release); }
bool take(uint64_t& w, uint64_t from, uint64_t to) {
    return std::atomic_ref<uint64_t>(w).compare_exchange_strong(from, to, std::memory_order_acq_rel);
}

bool process_alive(uint64_t pid) {
    if (pid == 0 || pid > static_cast<uint64_t>(INT32_MAX)) return false;
    return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

}  // namespace

HostMetrics::HostMetrics(const std::string& path, size_t data_words, uint64_t layout)
    : bytes_((kHeaderWords + kMaxBlocks * (kBlockHeaderWords + data_words)) * sizeof(uint64_t)),
      data_words_(data_words),
      layout_(layout) {
    words_ = map_host_file(path, bytes_, "metrics");
    // The first process writes the header; the others check that they share its block size.
    if (take(words_[1], 0, data_words_)) {
        store(words_[2], kMaxBlocks);
        store(words_[0], kMagic);
    }
    if (load(words_[1]) != data_words_) {
        unmap_host_file(words_, bytes_);
        throw std::runtime_error("the metrics file " + path +
                                 " was made by a release with another block size: remove it and restart the pool");
    }
    try {
        claim();
    } catch (...) {
        unmap_host_file(words_, bytes_);
        throw;
    }
    release_pages();
}

HostMetrics::~HostMetrics() {
    // The block stays claimed by this pid: the next process takes it over once we are gone.
    unmap_host_file(words_, bytes_);
}

// The claim and a scrape read every block (64 of them, 2.7 MB with the pool's route table),
// and each read maps its neighbours too (fault-around): kept, they were the largest part of
// a pool process's RSS after the runs but the libraries. Dropping this process's page table
// entries loses nothing (the pages belong to the shared file); what it counts into its own
// block maps back in on the next request.
void HostMetrics::release_pages() const { ::madvise(words_, bytes_, MADV_DONTNEED); }

uint64_t* HostMetrics::block(size_t i) const { return words_ + kHeaderWords + i * (kBlockHeaderWords + data_words_); }

void HostMetrics::claim() {
    const uint64_t me = static_cast<uint64_t>(::getpid());
    // First a block of this layout whose process is gone (its counts continue), then a
    // free one, then one of another layout whose process is gone (zeroed).
    for (int pass = 0; pass < 3; ++pass) {
        for (size_t i = 0; i < kMaxBlocks; ++i) {
            uint64_t* b = block(i);
            const uint64_t owner = load(b[kOwner]);
            const bool same_layout = load(b[kLayout]) == layout_;
            const bool wanted = pass == 0 ? owner != 0 && same_layout && (owner == me || !process_alive(owner))
                              : pass == 1 ? owner == 0
                                          : owner != 0 && !same_layout && !process_alive(owner);
            if (!wanted || !take(b[kOwner], owner, me)) continue;
            if (load(b[kLayout]) != layout_) {
                for (size_t w = 0; w < data_words_; ++w) store(b[kBlockHeaderWords + w], 0);
                store(b[kLayout], layout_);
            }
            own_ = b + kBlockHeaderWords;
            return;
        }
    }
    throw std::runtime_error("every block of the metrics file is held by a running process (at most " +
                             std::to_string(kMaxBlocks) + " pool processes per host)");
}

HostMetrics::Sums HostMetrics::sum() const {
    Sums s;
    s.all.assign(data_words_, 0);
    s.live.assign(data_words_, 0);
    for (size_t i = 0; i < kMaxBlocks; ++i) {
        const uint64_t* b = block(i);
        const uint64_t owner = load(b[kOwner]);
        if (owner == 0 || load(b[kLayout]) != layout_) continue;
        const bool live = process_alive(owner);
        s.live_blocks += live ? 1 : 0;
        for (size_t w = 0; w < data_words_; ++w) {
            const uint64_t v = std::atomic_ref<uint64_t>(const_cast<uint64_t&>(b[kBlockHeaderWords + w])).load(std::memory_order_relaxed);
            s.all[w] += v;
            if (live) s.live[w] += v;
        }
    }
    release_pages();
    return s;
}

}  // namespace cabinet::metrics
