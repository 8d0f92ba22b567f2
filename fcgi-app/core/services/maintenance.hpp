#pragma once
// Maintenance mode as stored in PostgreSQL (migration 0005): the admins' switch (cabinet
// admin screen, bot admin menu, `cabinetctl maintenance`), the panel watchdog's automatic
// switch (`cabinetctl watchdog`), and every admin action's audit entry. The rules are pure
// in domain/maintenance.hpp; this file is where they meet the database.
#include <pqxx/pqxx>

#include <chrono>
#include <string>
#include <string_view>

#include "config/settings.hpp"
#include "db/audit_repo.hpp"
#include "db/db.hpp"
#include "domain/maintenance.hpp"

namespace cabinet {

// The current state; MAINTENANCE_MODE until the first switch stores a row.
MaintenanceState load_maintenance(pqxx::transaction_base& txn, const Settings& s);
// The same, read on its own: what is true now, not a MaintenanceCache's copy.
MaintenanceState load_maintenance(Db& db, const Settings& s);

// An admin's switch: on (manual) or off, whoever had switched it on. `message` replaces the
// stub text when not empty (else MAINTENANCE_MESSAGE). Writes an audit entry by `actor`.
MaintenanceState switch_maintenance(pqxx::work& txn, const Settings& s, bool enabled, std::string_view actor,
                                    std::string_view message = {});

// The bot admin menu's switch: a button names the state it wants, so a double press or a
// press on a stale menu changes nothing and writes no audit entry when the state (read
// under its row lock) already is `enabled`; otherwise switch_maintenance.
MaintenanceState set_maintenance(pqxx::work& txn, const Settings& s, bool enabled, std::string_view actor);

// One watchdog check, applied under the state's row lock in the caller's transaction: the
// streak, the automatic switch with its audit entry, and the alert (a `send_report` job),
// so a run that dies before its commit leaves no trace and one that commits leaves all.
struct WatchdogOutcome {
    WatchdogStep step;
    MaintenanceState before;
    MaintenanceState after;
    bool alert_queued = false;  // false also when the alerts topic is not configured
};
WatchdogOutcome apply_panel_check(pqxx::work& txn, const Settings& s, bool panel_ok, std::string_view error);

// A pool thread's copy of the state for the bot's hot path (every update asks "are we in
// maintenance?"): read at most once per `ttl`, so a switch reaches every thread within it.
class MaintenanceCache {
public:
    explicit MaintenanceCache(int64_t ttl_ms) : ttl_(std::chrono::milliseconds(ttl_ms)) {}
    const MaintenanceState& get(Db& db, const Settings& s);

private:
    std::chrono::steady_clock::duration ttl_;
    std::chrono::steady_clock::time_point loaded_at_{};
    bool loaded_ = false;
    MaintenanceState value_;
    // The stub text it was loaded with: an owner's new MAINTENANCE_MESSAGE (a new settings
    // snapshot) reloads at once instead of after the TTL.
    std::string loaded_with_message_;
};

}  // namespace cabinet
