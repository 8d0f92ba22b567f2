// GET /metrics: Prometheus text format for the whole host (docs/operations.md "Metrics and
// logs"). nginx lets only loopback and METRICS_ALLOW reach it. The pool's counters are the
// sums of the host's metrics file (metrics/pool_metrics.hpp), whichever process answers;
// the gauges that live in PostgreSQL come from one statement, the worker's heartbeat from
// Redis. A database that is down leaves its gauges out, never the pool's counters.
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "cache/worker_heartbeat.hpp"
#include "metrics/exposition.hpp"
#include "services/host_health.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

void write_host_gauges(metrics::Exposition& out, const std::vector<GaugeRow>& rows, const Settings& s) {
    const auto each = [&](std::string_view metric, auto fn) {
        for (const auto& r : rows)
            if (r.metric == metric) fn(r);
    };
    out.family("cabinet_jobs", "gauge", "Jobs in the queue by status (done jobs are not counted)");
    for (const char* status : {"pending", "running", "dead"}) {
        double n = 0;
        each("jobs", [&](const GaugeRow& r) { if (r.a == status) n = r.value; });
        out.sample("cabinet_jobs", {{"status", status}}, n);
    }
    out.family("cabinet_jobs_oldest_due_seconds", "gauge", "How long the oldest due pending job has waited (0: none)");
    each("jobs_oldest_due_s", [&](const GaugeRow& r) { out.sample("cabinet_jobs_oldest_due_seconds", {}, r.value); });
    out.family("cabinet_payments_last_hour", "gauge",
               "Payments (deposits and subscription payments) created in the last hour, by method and their status now");
    each("payments_last_hour", [&](const GaugeRow& r) {
        out.sample("cabinet_payments_last_hour", {{"method", r.a}, {"status", r.b}}, r.value);
    });
    out.family("cabinet_payments_pending", "gauge", "Payments waiting for their gateway's answer, by method");
    each("payments_pending", [&](const GaugeRow& r) { out.sample("cabinet_payments_pending", {{"method", r.a}}, r.value); });

    // Until its row exists, maintenance is the MAINTENANCE_MODE setting (services/maintenance).
    bool row = false;
    out.family("cabinet_maintenance_enabled", "gauge", "1 while maintenance mode is on; source: manual or auto (the watchdog)");
    each("maintenance", [&](const GaugeRow& r) {
        row = true;
        out.sample("cabinet_maintenance_enabled", {{"source", r.a}}, r.value);
    });
    if (!row) out.sample("cabinet_maintenance_enabled", {{"source", s.maintenance_mode ? "manual" : ""}}, s.maintenance_mode ? 1 : 0);
    out.family("cabinet_watchdog_streak", "gauge", "Consecutive failed panel checks of the watchdog");
    if (!row) out.sample("cabinet_watchdog_streak", {}, 0);
    each("watchdog_streak", [&](const GaugeRow& r) { out.sample("cabinet_watchdog_streak", {}, r.value); });
    out.family("cabinet_watchdog_last_check_timestamp_seconds", "gauge", "When the watchdog last checked the panel (unix time)");
    each("watchdog_checked_at", [&](const GaugeRow& r) { out.sample("cabinet_watchdog_last_check_timestamp_seconds", {}, r.value); });
}

}  // namespace

void get_metrics(Exchange& ex) {
    if (!ex.shared.metrics) throw unavailable("metrics unavailable: METRICS_FILE could not be used (see the pool's log)");
    metrics::Exposition out;
    ex.shared.metrics->render(out);

    bool database = true;
    std::vector<GaugeRow> rows;
    try {
        rows = host_gauges(ex.io.db);
    } catch (const std::exception& e) {
        database = false;
        spdlog::warn("{} metrics: database gauges left out: {}", ex.req.request_id, e.what());
    }
    out.family("cabinet_database_up", "gauge", "1 when this scrape could read the gauges that live in PostgreSQL");
    out.sample("cabinet_database_up", {}, database ? 1 : 0);
    if (database) write_host_gauges(out, rows, ex.settings());

    out.family("cabinet_worker_heartbeat_age_seconds", "gauge", "Seconds since the worker's last heartbeat in Redis (absent: none)");
    if (const auto at = worker_heartbeat(ex.io.redis))
        out.sample("cabinet_worker_heartbeat_age_seconds", {}, static_cast<double>(unix_now() - *at));

    ex.resp.text(metrics::kContentType, out.text());
}

}  // namespace cabinet::api
