// The admin maintenance screen (SPEC "Maintenance screen actions", SPEC-GAPS "Admin
// maintenance screen"; docs/api.md "The owner's cabinet"). Owners change, owners and viewers
// read (routes.cpp; everyone else 403), by tma or JWT. Every action leaves an audit entry.
//   GET  /api/admin/maintenance                 the state, who set it, the watchdog's view
//   POST /api/admin/maintenance/mode {enabled, message?}
//   POST /api/admin/maintenance/backup          queues a backup job for the worker
//   POST /api/admin/maintenance/{update|restart-panel|restart-bot|reboot-server}
//   GET  /api/admin/audit?limit=N               newest first (default 50, at most 200)
#include <algorithm>
#include <array>

#include "api/handlers.hpp"
#include "backup/backup.hpp"
#include "db/audit_repo.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "jobs/job_queue.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

// Host operations are recorded, never run: the service has no business rebooting its host.
constexpr std::array<std::string_view, 4> kHostActions = {"update", "restart-panel", "restart-bot", "reboot-server"};
constexpr int64_t kDefaultAuditPage = 50;
constexpr int64_t kMaxAuditPage = 200;

void write_optional_time(JsonWriter& w, int64_t unix_s) {
    if (unix_s > 0) write_string(w, iso8601_utc(unix_s));
    else w.Null();
}

void write_state(JsonWriter& w, const MaintenanceState& m, const Settings& s) {
    w.StartObject();
    w.Key("enabled");
    w.Bool(m.enabled);
    w.Key("source");
    if (m.enabled) write_string(w, source_name(m.source));
    else w.Null();
    w.Key("message");
    write_string(w, m.message);
    w.Key("changed_by");
    write_string(w, m.changed_by);
    w.Key("changed_at");
    write_optional_time(w, m.changed_at);
    w.Key("auto_maintenance_enabled");
    w.Bool(s.auto_maintenance_enabled);
    w.Key("panel");
    w.StartObject();
    w.Key("consecutive_failures");
    w.Int(m.panel_failures);
    w.Key("checked_at");
    write_optional_time(w, m.panel_checked_at.value_or(0));
    w.Key("last_error");
    if (m.panel_last_error.empty()) w.Null();
    else write_string(w, m.panel_last_error);
    w.EndObject();
    w.EndObject();
}

}  // namespace

void get_admin_maintenance(Exchange& ex) {
    // Fresh, not the pool's cached copy: the admin wants to see what they just did.
    const MaintenanceState m = ex.io.db.read([&](auto& txn) { return load_maintenance(txn, ex.settings()); });
    write_state(ex.resp.json(), m, ex.settings());
}

void post_admin_maintenance_mode(Exchange& ex) {
    const JsonBody body(ex.req);
    const bool enabled = require_bool(body, "enabled");
    const std::string message = optional_string(body, "message", 1024).value_or("");
    const std::string by = admin_actor(ex);
    const MaintenanceState m =
        ex.io.db.write([&](pqxx::work& txn) { return switch_maintenance(txn, ex.settings(), enabled, by, message); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("maintenance");
    write_state(w, m, ex.settings());
    w.EndObject();
}

void post_admin_maintenance_backup(Exchange& ex) {
    if (ex.settings().backup_encryption_password.empty())
        throw bad_request("backups need BACKUP_ENCRYPTION_PASSWORD in the server's settings");
    const std::string by = admin_actor(ex);
    const int64_t task_id = ex.io.db.write([&](pqxx::work& txn) {
        rapidjson::StringBuffer buf;
        JsonWriter p(buf);
        p.StartObject();
        p.Key("requested_by");
        write_string(p, by);
        p.EndObject();
        const std::string payload(buf.GetString(), buf.GetSize());
        const int64_t id = jobs::enqueue(txn, backup::kBackupJob, payload);
        write_audit(txn, by, "backup", "job:" + std::to_string(id), payload);
        return id;
    });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("task_id");
    w.Int64(task_id);
    w.EndObject();
}

void post_admin_host_action(Exchange& ex) {
    const std::string& action = ex.req.path_params.at(0);
    if (std::find(kHostActions.begin(), kHostActions.end(), action) == kHostActions.end())
        throw not_found("unknown maintenance action; one of update, restart-panel, restart-bot, reboot-server");
    const std::string by = admin_actor(ex);
    const int64_t audit_id =
        ex.io.db.write([&](pqxx::work& txn) { return write_audit(txn, by, action, "host", R"({"status":"scheduled"})"); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("status");
    w.String("scheduled");
    w.Key("action");
    write_string(w, action);
    w.Key("audit_id");
    w.Int64(audit_id);
    w.EndObject();
}

void get_admin_audit(Exchange& ex) {
    int64_t limit = kDefaultAuditPage;
    if (const auto v = query_param(ex.req.query, "limit")) {
        if (!parse_int64(*v, limit) || limit < 1 || limit > kMaxAuditPage)
            throw bad_request("limit must be between 1 and " + std::to_string(kMaxAuditPage));
    }
    const auto entries = ex.io.db.read([&](auto& txn) { return latest_audit(txn, limit); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("items");
    w.StartArray();
    for (const AuditEntry& e : entries) {
        w.StartObject();
        w.Key("id");
        w.Int64(e.id);
        w.Key("at");
        write_string(w, iso8601_utc(e.at));
        w.Key("actor");
        write_string(w, e.actor);
        w.Key("action");
        write_string(w, e.action);
        w.Key("entity");
        if (e.entity.empty()) w.Null();
        else write_string(w, e.entity);
        w.Key("payload");
        w.RawValue(e.payload.data(), e.payload.size(), rapidjson::kObjectType);  // stored as JSONB: valid JSON
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

std::string admin_actor(Exchange& ex) {
    const User& u = ex.caller().user;
    return audit_actor(u.id, u.telegram_id);
}

}  // namespace cabinet::api
