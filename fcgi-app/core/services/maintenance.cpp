#include "services/maintenance.hpp"

#include <spdlog/spdlog.h>

#include "db/prepared.hpp"
#include "services/reports.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

// What customers are told: the switch's own text, else MAINTENANCE_MESSAGE, else the
// default; never a blank one (the bot could not send it).
std::string customer_text(std::string_view own, const Settings& s) {
    if (!trim(own).empty()) return std::string(own);
    if (!trim(s.maintenance_message).empty()) return s.maintenance_message;
    return kDefaultMaintenanceMessage;
}

MaintenanceState from_row(const pqxx::row& r, const Settings& s) {
    MaintenanceState m;
    m.enabled = r["enabled"].as<bool>();
    m.source = source_from_name(r["source"].c_str());
    m.message = customer_text(r["message"].c_str(), s);
    m.changed_by = r["changed_by"].c_str();
    m.changed_at = r["changed_at"].as<int64_t>();
    m.panel_failures = r["panel_failures"].as<int>();
    if (!r["panel_checked_at"].is_null()) m.panel_checked_at = r["panel_checked_at"].as<int64_t>();
    m.panel_last_error = r["panel_last_error"].c_str();
    return m;
}

// The state before any switch: what MAINTENANCE_MODE says, as if an admin had set it.
MaintenanceState seeded(const Settings& s) {
    MaintenanceState m;
    m.enabled = s.maintenance_mode;
    m.source = s.maintenance_mode ? MaintenanceSource::manual : MaintenanceSource::none;
    m.message = customer_text("", s);
    m.changed_by = "MAINTENANCE_MODE";
    return m;
}

// The row, created from the setting first if needed, locked until the transaction ends.
MaintenanceState lock_state(pqxx::work& txn, const Settings& s) {
    exec_prepared0(txn, "maintenance_seed", s.maintenance_mode);
    return from_row(exec_prepared1(txn, "maintenance_state_for_update"), s);
}

std::string alert_text(const WatchdogStep& step, const MaintenanceState& after, std::string_view error) {
    using Alert = WatchdogStep::Alert;
    using Switch = WatchdogStep::Switch;
    std::string t;
    if (step.alert == Alert::panel_down) {
        t = "⚠️ The VPN panel failed " + std::to_string(step.failures) + " checks in a row";
        if (!error.empty()) t += " (" + std::string(error) + ")";
        t += ".\n";
        if (step.change == Switch::on) t += "Maintenance mode is ON (switched automatically); it goes off when the panel answers again.";
        else if (after.enabled) t += "Maintenance mode was already on (set manually); the watchdog leaves it as it is.";
        else t += "Automatic maintenance is disabled (AUTO_MAINTENANCE_ENABLED=false); maintenance stays off.";
    } else if (step.alert == Alert::panel_back) {
        t = "✅ The VPN panel answers again.";
        if (step.change == Switch::off) t += " Automatic maintenance mode is OFF.";
        else if (after.enabled) t += " Maintenance mode stays on: it was set manually.";
    }
    return t;
}

}  // namespace

MaintenanceState load_maintenance(pqxx::transaction_base& txn, const Settings& s) {
    const auto res = exec_prepared(txn, "maintenance_state");
    return res.empty() ? seeded(s) : from_row(res[0], s);
}

MaintenanceState load_maintenance(Db& db, const Settings& s) {
    return db.read([&s](pqxx::nontransaction& txn) { return load_maintenance(txn, s); });
}

MaintenanceState switch_maintenance(pqxx::work& txn, const Settings& s, bool enabled, std::string_view actor,
                                    std::string_view message) {
    const MaintenanceState before = lock_state(txn, s);
    const std::string source(enabled ? source_name(MaintenanceSource::manual) : "");
    exec_prepared0(txn, "maintenance_switch", enabled, source, std::string(enabled ? message : ""), std::string(actor));
    write_audit(txn, actor, enabled ? "maintenance.on" : "maintenance.off", "maintenance",
                json_object({{"was", before.enabled ? source_name(before.source) : "off"}, {"message", message}}));
    spdlog::info("maintenance {} by {} (was {})", enabled ? "on" : "off", actor,
                 before.enabled ? source_name(before.source) : "off");
    return from_row(exec_prepared1(txn, "maintenance_state"), s);
}

MaintenanceState set_maintenance(pqxx::work& txn, const Settings& s, bool enabled, std::string_view actor) {
    MaintenanceState now = lock_state(txn, s);
    if (now.enabled == enabled) return now;
    return switch_maintenance(txn, s, enabled, actor);
}

WatchdogOutcome apply_panel_check(pqxx::work& txn, const Settings& s, bool panel_ok, std::string_view error) {
    WatchdogOutcome out;
    out.before = lock_state(txn, s);
    out.step = watchdog_step(out.before, panel_ok, s.auto_maintenance_enabled);
    exec_prepared0(txn, "maintenance_panel_check", out.step.failures, std::string(panel_ok ? "" : error));
    using Switch = WatchdogStep::Switch;
    if (out.step.change != Switch::keep) {
        const bool on = out.step.change == Switch::on;
        exec_prepared0(txn, "maintenance_switch", on, std::string(on ? source_name(MaintenanceSource::automatic) : ""), "",
                       "watchdog");
        write_audit(txn, "watchdog", on ? "maintenance.on" : "maintenance.off", "maintenance",
                    json_object({{"source", "auto"}, {"panel_error", error}}));
    }
    out.after = from_row(exec_prepared1(txn, "maintenance_state"), s);
    if (out.step.alert != WatchdogStep::Alert::none)
        out.alert_queued = enqueue_report(txn, s, ReportTopic::alerts, alert_text(out.step, out.after, error));
    return out;
}

const MaintenanceState& MaintenanceCache::get(Db& db, const Settings& s) {
    const auto now = std::chrono::steady_clock::now();
    if (loaded_ && now - loaded_at_ < ttl_ && loaded_with_message_ == s.maintenance_message) return value_;
    try {
        value_ = load_maintenance(db, s);
    } catch (const std::exception& e) {
        // With the database away the bot keeps its last answer rather than failing every update.
        if (!loaded_) throw;
        spdlog::warn("maintenance state reload failed, using the cached one: {}", e.what());
    }
    loaded_ = true;
    loaded_at_ = now;
    loaded_with_message_ = s.maintenance_message;
    return value_;
}

}  // namespace cabinet
