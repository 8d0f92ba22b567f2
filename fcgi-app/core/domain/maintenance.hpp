#pragma once
// Maintenance mode and the panel watchdog's rules (SPEC "Maintenance mode"): pure, no I/O.
// Where the state lives and how it changes: services/maintenance.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

// Who switched maintenance on. Automation only ever switches off what it switched on.
enum class MaintenanceSource { none, manual, automatic };

std::string_view source_name(MaintenanceSource s);  // "", "manual", "auto"
MaintenanceSource source_from_name(std::string_view name);

struct MaintenanceState {
    bool enabled = false;
    MaintenanceSource source = MaintenanceSource::none;  // none exactly when off
    std::string message;     // the stub text users see (the stored one or MAINTENANCE_MESSAGE)
    std::string changed_by;  // 'telegram:<id>', 'watchdog', 'cabinetctl', 'MAINTENANCE_MODE'
    int64_t changed_at = 0;  // unix seconds; 0 when never changed (seeded from the setting)
    int panel_failures = 0;  // consecutive failed watchdog checks
    std::optional<int64_t> panel_checked_at;
    std::string panel_last_error;
};

// SPEC "Limits": three failed checks in a row switch maintenance on.
inline constexpr int kWatchdogFailureThreshold = 3;
// SPEC "Limits": the alert of a button press in maintenance is cut to 200 characters.
inline constexpr size_t kMaintenanceAlertMaxChars = 200;

// What one watchdog check changes.
struct WatchdogStep {
    enum class Switch { keep, on, off };
    enum class Alert { none, panel_down, panel_back };
    int failures = 0;              // the new streak
    Switch change = Switch::keep;  // on: automatic maintenance; off: end of automatic maintenance
    Alert alert = Alert::none;     // panel_down when the streak reaches the threshold or
                                   // maintenance goes on; panel_back when a panel that had
                                   // reached it answers again
};

// SPEC's table: a failure counts; at the threshold, with `auto_enabled`, maintenance that is
// off goes on as automatic. A success resets the streak and ends automatic maintenance.
// Manual maintenance is never touched either way.
WatchdogStep watchdog_step(const MaintenanceState& state, bool panel_ok, bool auto_enabled);

}  // namespace cabinet
