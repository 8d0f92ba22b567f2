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
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/audit_log.hpp"
#include "services/maintenance.hpp"
#include "services/maintenance_admin.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

// Host operations are recorded, never run (services/maintenance_admin.hpp).
constexpr std::array<std::string_view, 4> kHostActions = {"update", "restart-panel", "restart-bot", "reboot-server"};
constexpr int64_t kDefaultAuditPage = 50;
constexpr int64_t kMaxAuditPage = 200;

// The text, or null when there is none.
std::optional<std::string_view> text_or_null(const std::string& s) {
    if (s.empty()) return std::nullopt;
    return s;
}

void write_state(JsonWriter& w, const MaintenanceState& m, const Settings& s) {
    JsonObject o(w);
    o.put("enabled", m.enabled).put("source", m.enabled ? std::optional(source_name(m.source)) : std::nullopt);
    o.put("message", m.message).put("changed_by", m.changed_by).time("changed_at", m.changed_at);
    o.put("auto_maintenance_enabled", s.auto_maintenance_enabled);
    o.object("panel")
        .put("consecutive_failures", m.panel_failures)
        .time("checked_at", m.panel_checked_at)
        .put("last_error", text_or_null(m.panel_last_error));
}

}  // namespace

void get_admin_maintenance(Exchange& ex) {
    // Fresh, not the pool's cached copy: the admin wants to see what they just did.
    const MaintenanceState m = load_maintenance(ex.io.db, ex.settings());
    write_state(ex.resp.json(), m, ex.settings());
}

void post_admin_maintenance_mode(Exchange& ex) {
    const JsonBody body(ex.req);
    const bool enabled = require_bool(body, "enabled");
    const std::string message = optional_string(body, "message", 1024).value_or("");
    const std::string by = admin_actor(ex);
    const MaintenanceState m = switch_maintenance_by_owner(ex.io.db, ex.settings(), enabled, by, message);
    write_state(JsonObject(ex.resp.json()).put("ok", true).key("maintenance"), m, ex.settings());
}

void post_admin_maintenance_backup(Exchange& ex) {
    if (ex.settings().backup_encryption_password.empty())
        throw bad_request("backups need BACKUP_ENCRYPTION_PASSWORD in the server's settings");
    const int64_t task_id = queue_backup(ex.io.db, admin_actor(ex));
    JsonObject(ex.resp.json()).put("ok", true).put("task_id", task_id);
}

void post_admin_host_action(Exchange& ex) {
    const std::string& action = ex.req.path_params.at(0);
    if (std::find(kHostActions.begin(), kHostActions.end(), action) == kHostActions.end())
        throw not_found("unknown maintenance action; one of update, restart-panel, restart-bot, reboot-server");
    const int64_t audit_id = record_host_action(ex.io.db, admin_actor(ex), action);
    JsonObject(ex.resp.json())
        .put("ok", true)
        .put("status", "scheduled")
        .put("action", action)
        .put("audit_id", audit_id);
}

void get_admin_audit(Exchange& ex) {
    int64_t limit = kDefaultAuditPage;
    if (const auto v = query_param(ex.req.query, "limit")) {
        if (!parse_int64(*v, limit) || limit < 1 || limit > kMaxAuditPage)
            throw bad_request("limit must be between 1 and " + std::to_string(kMaxAuditPage));
    }
    const auto entries = latest_audit(ex.io.db, limit);
    JsonObject o(ex.resp.json());
    JsonArray items = o.array("items");
    for (const AuditEntry& e : entries) {
        JsonObject item = items.object();
        item.put("id", e.id).put("at", iso8601_utc(e.at)).put("actor", e.actor).put("action", e.action);
        item.put("entity", text_or_null(e.entity)).raw("payload", e.payload);  // stored as JSONB: valid JSON
    }
}

std::string admin_actor(Exchange& ex) {
    const User& u = ex.caller().user;
    return audit_actor(u.id, u.telegram_id);
}

}  // namespace cabinet::api
