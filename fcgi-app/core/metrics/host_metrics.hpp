#pragma once
// The host's metrics file: one small file on a tmpfs (METRICS_FILE, the pool units'
// RuntimeDirectory) mapped by every pool process of the host, so that a scrape that nginx
// hands to any one process shows the whole host (docs/decisions.md "Metrics and logs").
//
// Layout, 64-bit words: a header (magic, words per block, blocks), then kMaxBlocks blocks.
// A block is [owner pid, layout id, 2 spare words, data...]; each process claims one at
// start and is the only one to add to it, with relaxed atomics (metrics/counter.hpp). A
// scrape sums the blocks of its own layout. Blocks are never given back: a process that
// starts takes over the block of one that is gone, counts on from its values, and so the
// host's sums never go down when a process restarts (Prometheus would see a reset).
// The layout id names what the data words mean (the pool's route table, the buckets): a
// block of another layout (a process of the previous release, during an upgrade) is not
// summed, and is zeroed when a process of the new layout takes it over.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cabinet::metrics {

class HostMetrics {
public:
    static constexpr size_t kMaxBlocks = 64;
    static constexpr size_t kHeaderWords = 4;
    static constexpr size_t kBlockHeaderWords = 4;

    // Opens (creating, mode 0600) and maps `path`, then claims a block of `data_words`.
    // Throws std::runtime_error when it can't (no file, another block size, every block
    // held by a live process).
    HostMetrics(const std::string& path, size_t data_words, uint64_t layout);
    ~HostMetrics();
    HostMetrics(const HostMetrics&) = delete;
    HostMetrics& operator=(const HostMetrics&) = delete;

    // This process's data words.
    uint64_t* own() const { return own_; }
    size_t data_words() const { return data_words_; }

    struct Sums {
        std::vector<uint64_t> all;   // every block of this layout: counters
        std::vector<uint64_t> live;  // blocks whose process runs: gauges (busy threads)
        size_t live_blocks = 0;
    };
    Sums sum() const;

private:
    uint64_t* block(size_t i) const;
    void claim();
    void release_pages() const;

    uint64_t* words_ = nullptr;
    size_t bytes_ = 0;
    size_t data_words_;
    uint64_t layout_;
    uint64_t* own_ = nullptr;
};

}  // namespace cabinet::metrics
