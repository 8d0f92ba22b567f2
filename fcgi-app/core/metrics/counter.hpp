#pragma once
// Words of the host's metrics file (metrics/host_metrics.hpp) as the code that counts sees
// them: a counter and a latency histogram. Adding is one relaxed atomic add on a word no
// other process writes at that moment (each process has its own block), no lock and no
// allocation: the pool counts on every request at 30k req/s. A default-made one (no word)
// counts nothing, for the programs and tests that keep no metrics.
#include <array>
#include <atomic>
#include <cstdint>

namespace cabinet::metrics {

class Counter {
public:
    Counter() = default;
    explicit Counter(uint64_t* word) : word_(word) {}
    void add(uint64_t n = 1) const {
        if (word_) std::atomic_ref<uint64_t>(*word_).fetch_add(n, std::memory_order_relaxed);
    }
    // Gauges kept as a counter pair would cost a second word; busy threads go up and down.
    void sub(uint64_t n = 1) const {
        if (word_) std::atomic_ref<uint64_t>(*word_).fetch_sub(n, std::memory_order_relaxed);
    }
    void set(uint64_t v) const {
        if (word_) std::atomic_ref<uint64_t>(*word_).store(v, std::memory_order_relaxed);
    }

private:
    uint64_t* word_ = nullptr;
};

// Latency buckets, upper bounds in microseconds (Prometheus `le` in seconds: 1 ms .. 10 s).
inline constexpr std::array<uint64_t, 13> kLatencyBoundsUs = {
    1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000, 1000000, 2500000, 5000000, 10000000};
// Words of one histogram: a count per bucket (not cumulative; the last is above every
// bound, i.e. +Inf alone), then the sum of the observations in microseconds.
inline constexpr size_t kHistogramWords = kLatencyBoundsUs.size() + 2;

class Histogram {
public:
    Histogram() = default;
    explicit Histogram(uint64_t* words) : words_(words) {}
    void observe(uint64_t us) const {
        if (!words_) return;
        size_t b = 0;
        while (b < kLatencyBoundsUs.size() && us > kLatencyBoundsUs[b]) ++b;
        std::atomic_ref<uint64_t>(words_[b]).fetch_add(1, std::memory_order_relaxed);
        std::atomic_ref<uint64_t>(words_[kHistogramWords - 1]).fetch_add(us, std::memory_order_relaxed);
    }

private:
    uint64_t* words_ = nullptr;
};

// An outside call (PostgreSQL statement, Redis command, panel request): how many, how many
// failed, and (where it is worth a clock read) how long they took.
struct CallCounters {
    Counter calls;
    Counter errors;
    Histogram latency;
};

// A cache of the process (the account cache): lookups served from memory or not, and what
// it holds right now (gauges: entries and bytes go up and down).
struct CacheCounters {
    Counter hits;
    Counter misses;
    Counter entries;
    Counter bytes;
};

}  // namespace cabinet::metrics
