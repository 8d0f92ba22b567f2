#include "metrics/pool_metrics.hpp"

#include <stdexcept>

namespace cabinet::metrics {
namespace {

// Every status the pool or its handlers answer with, and a few a handler might.
const std::vector<int> kStatuses = {200, 201, 202, 204, 301, 302, 303, 304, 307, 308, 400, 401, 402, 403,
                                    404, 405, 409, 410, 413, 415, 422, 429, 500, 501, 502, 503, 504};

size_t status_slot(int status) {
    for (size_t i = 0; i < kStatuses.size(); ++i)
        if (kStatuses[i] == status) return i;
    return kStatuses.size();  // other
}

// What the data words mean: a block counted under another table is not summed with ours.
uint64_t layout_of(const std::vector<RouteName>& routes) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    const auto mix = [&h](std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
        h = (h ^ 0xff) * 1099511628211ull;
    };
    mix("pool-metrics-2");  // 2: the account cache's words
    for (int s : kStatuses) mix(std::to_string(s));
    for (uint64_t b : kLatencyBoundsUs) mix(std::to_string(b));
    for (const auto& r : routes) {
        mix(r.method);
        mix(r.pattern);
    }
    return h == 0 ? 1 : h;
}

constexpr size_t kRouteSlots = PoolMetrics::kMaxRoutes + 2;

}  // namespace

const std::vector<int>& PoolMetrics::statuses() { return kStatuses; }

// Per route: a count per status (and other), then the latency histogram.
size_t PoolMetrics::route_words() { return kStatuses.size() + 1 + kHistogramWords; }

PoolMetrics::PoolMetrics(const std::string& path, std::vector<RouteName> routes) : routes_(std::move(routes)) {
    if (routes_.size() > kMaxRoutes) throw std::runtime_error("more routes than the metrics file has room for");
    host_ = std::make_unique<HostMetrics>(path, kFirstRouteWord + kRouteSlots * route_words(), layout_of(routes_));
    // A block taken over from a process that is gone keeps its counters, not its gauges.
    threads().set(0);
    threads_busy().set(0);
    account_cache().entries.set(0);
    account_cache().bytes.set(0);
    Counter(word(kStarts)).add();
}

void PoolMetrics::request(size_t route, int status, uint64_t us) const {
    uint64_t* r = word(kFirstRouteWord + route * route_words());
    std::atomic_ref<uint64_t>(r[status_slot(status)]).fetch_add(1, std::memory_order_relaxed);
    Histogram(r + kStatuses.size() + 1).observe(us);
}

void PoolMetrics::render(Exposition& out) const {
    const HostMetrics::Sums s = host_->sum();
    const auto at = [&](size_t w) { return static_cast<double>(s.all[w]); };
    const auto live = [&](size_t w) { return static_cast<double>(static_cast<int64_t>(s.live[w])); };

    out.family("cabinet_http_requests_total", "counter",
               "Requests answered by the pool, by route pattern, method and status");
    std::vector<std::string> status_names;
    for (int st : kStatuses) status_names.push_back(std::to_string(st));
    status_names.emplace_back("other");
    const auto route_label = [&](size_t i, std::string_view& method, std::string_view& pattern) {
        if (i < routes_.size()) method = routes_[i].method, pattern = routes_[i].pattern;
        else if (i == preflight()) method = "OPTIONS", pattern = "(preflight)";
        else method = "(any)", pattern = "(unmatched)";
    };
    std::vector<size_t> used;  // routes with traffic: the others are left out
    for (size_t i = 0; i <= unmatched(); ++i) {
        const size_t base = kFirstRouteWord + i * route_words();
        std::string_view method, pattern;
        route_label(i, method, pattern);
        bool any = false;
        for (size_t k = 0; k < status_names.size(); ++k) {
            if (s.all[base + k] == 0) continue;
            any = true;
            out.sample("cabinet_http_requests_total", {{"route", pattern}, {"method", method}, {"status", status_names[k]}}, at(base + k));
        }
        if (any) used.push_back(i);
    }
    out.family("cabinet_http_request_duration_seconds", "histogram",
               "Time from accepting a request to writing its answer, by route pattern and method");
    for (size_t i : used) {
        std::string_view method, pattern;
        route_label(i, method, pattern);
        out.histogram("cabinet_http_request_duration_seconds", {{"route", pattern}, {"method", method}},
                      s.all.data() + kFirstRouteWord + i * route_words() + kStatuses.size() + 1);
    }

    out.family("cabinet_pool_processes", "gauge", "Pool processes of this host that are running");
    out.sample("cabinet_pool_processes", {}, static_cast<double>(s.live_blocks));
    out.family("cabinet_pool_process_starts_total", "counter", "Pool process starts on this host (restarts included)");
    out.sample("cabinet_pool_process_starts_total", {}, at(kStarts));
    out.family("cabinet_pool_connections_total", "counter", "Connections the pool accepted from nginx (requests come several to a connection while nginx keeps them open)");
    out.sample("cabinet_pool_connections_total", {}, at(kConnections));
    out.family("cabinet_pool_threads", "gauge", "Request threads of the running pool processes");
    out.sample("cabinet_pool_threads", {}, live(kThreads));
    out.family("cabinet_pool_threads_busy", "gauge", "Request threads answering a request right now (this scrape's included)");
    out.sample("cabinet_pool_threads_busy", {}, live(kThreadsBusy));

    out.family("cabinet_db_round_trips_total", "counter", "PostgreSQL statements the pool sent (each a round trip; BEGIN and COMMIT included)");
    out.sample("cabinet_db_round_trips_total", {}, at(kDbCalls));
    out.family("cabinet_db_errors_total", "counter", "PostgreSQL statements that failed (an error result)");
    out.sample("cabinet_db_errors_total", {}, at(kDbErrors));
    out.family("cabinet_db_connect_failures_total", "counter", "Failed PostgreSQL connection attempts of the pool");
    out.sample("cabinet_db_connect_failures_total", {}, at(kDbConnectFailures));
    out.family("cabinet_redis_round_trips_total", "counter", "Redis round trips the pool attempted");
    out.sample("cabinet_redis_round_trips_total", {}, at(kRedisCalls));
    out.family("cabinet_redis_errors_total", "counter", "Redis round trips that failed (not connected, I/O error, timeout)");
    out.sample("cabinet_redis_errors_total", {}, at(kRedisErrors));

    out.family("cabinet_panel_calls_total", "counter", "Requests the pool sent to the VPN panel");
    out.sample("cabinet_panel_calls_total", {}, at(kPanelCalls));
    out.family("cabinet_panel_errors_total", "counter", "Panel requests that failed (transport error or a non-2xx answer)");
    out.sample("cabinet_panel_errors_total", {}, at(kPanelErrors));
    out.family("cabinet_panel_busy_total", "counter", "Panel requests refused before they were sent: PANEL_CONCURRENCY slots all taken");
    out.sample("cabinet_panel_busy_total", {}, at(kPanelBusy));
    out.family("cabinet_panel_call_duration_seconds", "histogram", "Time of one panel request");
    out.histogram("cabinet_panel_call_duration_seconds", {}, s.all.data() + kPanelLatency);

    out.family("cabinet_account_cache_lookups_total", "counter",
               "Account reads of the pool by where they were answered from: hit (the process's memory) or miss (PostgreSQL)");
    out.sample("cabinet_account_cache_lookups_total", {{"result", "hit"}}, at(kAccountHits));
    out.sample("cabinet_account_cache_lookups_total", {{"result", "miss"}}, at(kAccountMisses));
    out.family("cabinet_account_cache_entries", "gauge",
               "Users the pool processes keep in memory (a user counts once in each process that keeps them)");
    out.sample("cabinet_account_cache_entries", {}, live(kAccountEntries));
    out.family("cabinet_account_cache_bytes", "gauge",
               "Memory the pool processes' account caches take, as counted against ACCOUNT_CACHE_MB each");
    out.sample("cabinet_account_cache_bytes", {}, live(kAccountBytes));
}

}  // namespace cabinet::metrics
