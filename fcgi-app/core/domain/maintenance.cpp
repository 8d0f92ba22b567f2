#include "domain/maintenance.hpp"

namespace cabinet {

std::string_view source_name(MaintenanceSource s) {
    switch (s) {
        case MaintenanceSource::manual: return "manual";
        case MaintenanceSource::automatic: return "auto";
        case MaintenanceSource::none: break;
    }
    return "";
}

MaintenanceSource source_from_name(std::string_view name) {
    if (name == "manual") return MaintenanceSource::manual;
    if (name == "auto") return MaintenanceSource::automatic;
    return MaintenanceSource::none;
}

WatchdogStep watchdog_step(const MaintenanceState& state, bool panel_ok, bool auto_enabled) {
    WatchdogStep step;
    if (panel_ok) {
        step.failures = 0;
        if (state.panel_failures >= kWatchdogFailureThreshold) step.alert = WatchdogStep::Alert::panel_back;
        if (state.enabled && state.source == MaintenanceSource::automatic) step.change = WatchdogStep::Switch::off;
        return step;
    }
    step.failures = state.panel_failures + 1;
    // `>=`: when an admin switches maintenance off while the panel is still down (or turns
    // AUTO_MAINTENANCE_ENABLED on), the next failed check switches it on again.
    if (step.failures >= kWatchdogFailureThreshold && auto_enabled && !state.enabled) step.change = WatchdogStep::Switch::on;
    // Admins hear of the outage once when the streak reaches the threshold (whatever the
    // mode), and at every automatic switch-on (SPEC "Events").
    if (step.failures == kWatchdogFailureThreshold || step.change == WatchdogStep::Switch::on)
        step.alert = WatchdogStep::Alert::panel_down;
    return step;
}

}  // namespace cabinet
