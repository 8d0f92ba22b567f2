// GET /health and GET /health/deep (SPEC "Health endpoints").
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "cache/worker_heartbeat.hpp"
#include "services/host_health.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

// Each check tries twice: a thread's connection broken by an earlier restart fails once
// and reconnects on the second try, and that is not an outage to report.
bool database_alive(Exchange& ex) {
    for (int attempt = 1;; ++attempt) {
        try {
            ping_database(ex.io.db);
            return true;
        } catch (const std::exception& e) {
            ex.io.db.reset();
            if (attempt == 2) {
                spdlog::warn("{} health: database check failed: {}", ex.req.request_id, e.what());
                return false;
            }
        }
    }
}

bool redis_alive(Exchange& ex) { return ex.io.redis.ping() || ex.io.redis.ping(); }

bool worker_alive(Exchange& ex) {
    const auto at = worker_heartbeat(ex.io.redis);
    return at && unix_now() - *at <= ex.settings().worker_heartbeat_max_age_s;
}

// Probed by one thread of the process at a time, at most every few seconds.
bool panel_alive(Exchange& ex) {
    return ex.shared.panel_health.alive([&] {
        ex.io.panel.version();
        return true;
    });
}

void write_health(Exchange& ex, bool ok, std::initializer_list<std::pair<const char*, bool>> checks) {
    ex.resp.status = ok ? 200 : 503;
    JsonObject o(ex.resp.json());
    o.put("status", ok ? "ok" : "degraded");
    for (const auto& [name, alive] : checks) o.put(name, alive);
}

}  // namespace

// Both checks answer {status, database, redis, ...}; only the deep one looks further.
void get_health(Exchange& ex) {
    const bool db = database_alive(ex);
    const bool redis = redis_alive(ex);
    write_health(ex, db && redis, {{"database", db}, {"redis", redis}});
}

void get_health_deep(Exchange& ex) {
    const bool db = database_alive(ex);
    const bool redis = redis_alive(ex);
    const bool worker = redis && worker_alive(ex);
    const bool panel = panel_alive(ex);  // informational: never makes the answer 503
    write_health(ex, db && redis && worker, {{"database", db}, {"redis", redis}, {"worker", worker}, {"panel", panel}});
}

}  // namespace cabinet::api
