#pragma once
// What a pool process counts, in its block of the host's metrics file (host_metrics.hpp),
// and how a scrape renders the host's sums (api/metrics.cpp adds the gauges that live in
// PostgreSQL). Every method used per request is a few relaxed atomic adds.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "metrics/counter.hpp"
#include "metrics/exposition.hpp"
#include "metrics/host_metrics.hpp"

namespace cabinet::metrics {

struct RouteName {
    std::string method;
    std::string pattern;  // the route table's pattern, never the raw path
};

class PoolMetrics {
public:
    static constexpr size_t kMaxRoutes = 126;  // + preflight + unmatched = 128 route slots

    // Maps `path` and claims this process's block. Throws std::runtime_error.
    PoolMetrics(const std::string& path, std::vector<RouteName> routes);

    // Route slots beside the table's own (0 .. routes-1): CORS preflights (OPTIONS, not a
    // route of the table) and requests no route took (404, 405, a request that could not
    // be read).
    size_t preflight() const { return routes_.size(); }
    size_t unmatched() const { return routes_.size() + 1; }

    // One answered request: its route slot, status and time from accept to finish.
    void request(size_t route, int status, uint64_t us) const;

    Counter threads() const { return Counter(word(kThreads)); }           // gauge
    Counter threads_busy() const { return Counter(word(kThreadsBusy)); }  // gauge
    CallCounters db() const { return {Counter(word(kDbCalls)), Counter(word(kDbErrors)), {}}; }
    Counter db_connect_failures() const { return Counter(word(kDbConnectFailures)); }
    CallCounters redis() const { return {Counter(word(kRedisCalls)), Counter(word(kRedisErrors)), {}}; }
    CallCounters panel() const { return {Counter(word(kPanelCalls)), Counter(word(kPanelErrors)), Histogram(word(kPanelLatency))}; }
    Counter panel_busy() const { return Counter(word(kPanelBusy)); }
    // Connections accepted from nginx: far fewer than requests while nginx keeps them open.
    Counter connections() const { return Counter(word(kConnections)); }
    CacheCounters account_cache() const {
        return {Counter(word(kAccountHits)), Counter(word(kAccountMisses)), Counter(word(kAccountEntries)),
                Counter(word(kAccountBytes))};
    }

    // The host's sums as exposition text.
    void render(Exposition& out) const;

    // Status codes with a word of their own; others count under "other".
    static const std::vector<int>& statuses();

private:
    enum Word : size_t {
        kThreads, kThreadsBusy, kStarts,
        kDbCalls, kDbErrors, kDbConnectFailures,
        kRedisCalls, kRedisErrors,
        kPanelCalls, kPanelErrors, kPanelBusy,
        kPanelLatency,  // kHistogramWords
        kAccountHits = kPanelLatency + kHistogramWords, kAccountMisses, kAccountEntries, kAccountBytes,
        kConnections,
        kProcessWords,
        kFirstRouteWord = 32,
    };
    static_assert(kProcessWords <= kFirstRouteWord, "process words overlap the route words");
    uint64_t* word(size_t i) const { return host_->own() + i; }
    static size_t route_words();

    std::vector<RouteName> routes_;
    std::unique_ptr<HostMetrics> host_;
};

}  // namespace cabinet::metrics
