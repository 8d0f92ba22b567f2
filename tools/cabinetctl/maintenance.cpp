// cabinetctl maintenance on|off|status [--message TEXT]: the admins' switch from a shell
//   (the same as the cabinet's admin screen and the bot's admin menu; audited as cabinetctl).
// cabinetctl watchdog: one panel check (cron or cabinet-watchdog.timer, every 2 minutes).
//   Three failed checks in a row switch maintenance on (marked automatic) and alert the
//   reporting group's alerts topic; the first good answer switches automatic maintenance
//   off. Manual maintenance is never touched. See services/maintenance.hpp.
#include <iostream>

#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "db/db.hpp"
#include "metrics/exposition.hpp"
#include "metrics/textfile.hpp"
#include "panel/panel_client.hpp"
#include "services/maintenance.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

// Session advisory lock of a watchdog run: runs that overlap (a slow panel, cron and the
// timer both enabled) would count one outage twice.
constexpr int64_t kWatchdogLock = 0x6361627764;  // "cabwd"

void print_state(const MaintenanceState& m) {
    std::cout << "maintenance: " << (m.enabled ? "on" : "off");
    if (m.enabled) std::cout << " (" << (m.source == MaintenanceSource::automatic ? "automatic" : "manual") << ")";
    std::cout << "\nchanged by: " << m.changed_by;
    if (m.changed_at > 0) std::cout << " at " << iso8601_utc(m.changed_at);
    std::cout << "\nmessage: " << m.message << "\npanel: " << m.panel_failures << " failed check(s) in a row";
    if (m.panel_checked_at) std::cout << ", last check " << iso8601_utc(*m.panel_checked_at);
    if (!m.panel_last_error.empty()) std::cout << ", last error: " << m.panel_last_error;
    std::cout << "\n";
}

// One version request with the panel's timeouts. Liveness only: an old version is logged
// (the pool's start-up probe refuses it) but counts as an answer.
bool check_panel(const Settings& s, std::string& error) {
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
    try {
        const std::string v = panel.version();
        if (!version_at_least(v, kMinPanelVersion))
            spdlog::warn("watchdog: panel reports version {}, older than the supported {}", v, kMinPanelVersion);
        return true;
    } catch (const PanelError& e) {
        error = e.why();
        return false;
    }
}

}  // namespace

int maintenance(const Args& args) {
    const std::string action = args.empty() ? "" : args[0];
    if (action != "on" && action != "off" && action != "status") {
        std::cerr << "usage: cabinetctl maintenance on|off|status [--message TEXT]\n";
        return 2;
    }
    const Settings s = load_effective_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    if (action == "status") {
        print_state(db.read([&](auto& txn) { return load_maintenance(txn, s); }));
        return 0;
    }
    const std::string message = option(args, "--message");
    print_state(db.write([&](pqxx::work& txn) { return switch_maintenance(txn, s, action == "on", "cabinetctl", message); }));
    return 0;
}

namespace {
// cabinet_watchdog.prom after each run (docs/operations.md "Metrics and logs").
void write_watchdog_metrics(const Settings& s, bool panel_ok, const WatchdogOutcome& o) {
    if (s.metrics_textfile_dir.empty()) return;
    metrics::Exposition out;
    out.family("cabinet_watchdog_last_run_timestamp_seconds", "gauge", "When the watchdog last ran (unix time)");
    out.sample("cabinet_watchdog_last_run_timestamp_seconds", {}, static_cast<double>(unix_now()));
    out.family("cabinet_watchdog_panel_up", "gauge", "1 when the watchdog's last panel check passed");
    out.sample("cabinet_watchdog_panel_up", {}, panel_ok ? 1 : 0);
    out.family("cabinet_watchdog_failures_in_a_row", "gauge", "Consecutive failed panel checks after the last run");
    out.sample("cabinet_watchdog_failures_in_a_row", {}, o.after.panel_failures);
    out.family("cabinet_watchdog_maintenance_enabled", "gauge", "1 when maintenance mode was on after the last run");
    out.sample("cabinet_watchdog_maintenance_enabled", {}, o.after.enabled ? 1 : 0);
    metrics::write_textfile(s.metrics_textfile_dir, "cabinet_watchdog.prom", out.text());
}
}  // namespace

int watchdog(const Args& args) {
    if (!args.empty()) {
        std::cerr << "usage: cabinetctl watchdog (no arguments; run every 2 minutes)\n";
        return 2;
    }
    const Settings s = load_effective_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    const bool locked = db.read([](pqxx::nontransaction& txn) {
        return txn.exec_params1("SELECT pg_try_advisory_lock($1)", kWatchdogLock)[0].as<bool>();
    });
    if (!locked) {
        std::cout << "another watchdog run is in progress; this one does nothing\n";
        return 0;
    }
    std::string error;
    const bool ok = check_panel(s, error);
    // The lock lives on this connection: a reconnect would lose it, so no retrying write().
    const WatchdogOutcome o = db.transact([&](pqxx::work& txn) { return apply_panel_check(txn, s, ok, error); });

    write_watchdog_metrics(s, ok, o);

    using Switch = WatchdogStep::Switch;
    if (ok) spdlog::info("watchdog: panel answers");
    else spdlog::warn("watchdog: panel check failed ({} in a row): {}", o.step.failures, error);
    if (o.step.change == Switch::on) spdlog::warn("watchdog: maintenance switched ON automatically");
    if (o.step.change == Switch::off) spdlog::info("watchdog: automatic maintenance switched OFF");
    if (o.step.alert != WatchdogStep::Alert::none && !o.alert_queued)
        spdlog::warn("watchdog: no alert sent: REPORT_CHAT_ID / REPORT_TOPIC_ALERTS are not set");
    print_state(o.after);
    return 0;
}

}  // namespace cabinet::ctl
