// GET /health and GET /health/deep (SPEC "Health endpoints").
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

bool database_alive(Exchange& ex) {
    try {
        ex.io.db.read([](auto& txn) { return txn.exec_prepared("ping"); });
        return true;
    } catch (const std::exception& e) {
        spdlog::warn("{} health: database check failed: {}", ex.req.request_id, e.what());
        ex.io.db.reset();
        return false;
    }
}

bool worker_alive(Exchange& ex) {
    const auto stamp = ex.io.redis.get("cabinet:worker:heartbeat");
    int64_t at = 0;
    if (!stamp || !parse_int64(*stamp, at)) return false;
    return unix_now() - at <= ex.settings().worker_heartbeat_max_age_s;
}

bool panel_alive(Exchange& ex) {
    try {
        ex.io.panel.version();
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

void write_flag(JsonWriter& w, const char* key, bool value) {
    w.Key(key);
    w.Bool(value);
}

}  // namespace

void get_health(Exchange& ex) {
    const bool db = database_alive(ex);
    const bool redis = ex.io.redis.ping();
    const bool ok = db && redis;
    ex.resp.status = ok ? 200 : 503;
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("status");
    w.String(ok ? "ok" : "degraded");
    write_flag(w, "database", db);
    write_flag(w, "redis", redis);
    w.EndObject();
}

void get_health_deep(Exchange& ex) {
    const bool db = database_alive(ex);
    const bool redis = ex.io.redis.ping();
    const bool worker = redis && worker_alive(ex);
    const bool panel = panel_alive(ex);  // informational: never makes the answer 503
    const bool ok = db && redis && worker;
    ex.resp.status = ok ? 200 : 503;
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("status");
    w.String(ok ? "ok" : "degraded");
    write_flag(w, "database", db);
    write_flag(w, "redis", redis);
    write_flag(w, "worker", worker);
    write_flag(w, "panel", panel);
    w.EndObject();
}

}  // namespace cabinet::api
