// The watchdog's rules (SPEC "Maintenance mode" table) and the alert cut (SPEC "Limits").
#include <boost/test/unit_test.hpp>

#include "domain/maintenance.hpp"
#include "util/strings.hpp"

using namespace cabinet;
using Switch = WatchdogStep::Switch;
using Alert = WatchdogStep::Alert;

namespace {

MaintenanceState state(bool enabled, MaintenanceSource source, int failures) {
    MaintenanceState m;
    m.enabled = enabled;
    m.source = source;
    m.panel_failures = failures;
    return m;
}

// Runs checks through the rules as the watchdog does, carrying the state along.
MaintenanceState run(MaintenanceState m, std::initializer_list<bool> checks, bool auto_enabled = true) {
    for (bool ok : checks) {
        const WatchdogStep step = watchdog_step(m, ok, auto_enabled);
        m.panel_failures = step.failures;
        if (step.change == Switch::on) m = state(true, MaintenanceSource::automatic, step.failures);
        if (step.change == Switch::off) m = state(false, MaintenanceSource::none, step.failures);
    }
    return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(maintenance)

BOOST_AUTO_TEST_CASE(three_failures_in_a_row_switch_on_automatically_with_one_alert) {
    MaintenanceState m = state(false, MaintenanceSource::none, 0);
    auto s1 = watchdog_step(m, false, true);
    BOOST_TEST(s1.failures == 1);
    BOOST_TEST((s1.change == Switch::keep && s1.alert == Alert::none));
    m = run(m, {false, false});
    BOOST_TEST(!m.enabled);
    const auto s3 = watchdog_step(m, false, true);
    BOOST_TEST(s3.failures == 3);
    BOOST_TEST((s3.change == Switch::on));
    BOOST_TEST((s3.alert == Alert::panel_down));
    m = run(m, {false});
    BOOST_TEST((m.enabled && m.source == MaintenanceSource::automatic));
    const auto s4 = watchdog_step(m, false, true);  // still down: no second alert, no change
    BOOST_TEST((s4.change == Switch::keep && s4.alert == Alert::none && s4.failures == 4));
}

BOOST_AUTO_TEST_CASE(a_success_breaks_the_streak) {
    const MaintenanceState m = run(state(false, MaintenanceSource::none, 0), {false, false, true, false, false});
    BOOST_TEST(!m.enabled);
    BOOST_TEST(m.panel_failures == 2);
}

BOOST_AUTO_TEST_CASE(automatic_maintenance_ends_when_the_panel_answers) {
    const auto step = watchdog_step(state(true, MaintenanceSource::automatic, 5), true, true);
    BOOST_TEST((step.change == Switch::off));
    BOOST_TEST((step.alert == Alert::panel_back));
    BOOST_TEST(step.failures == 0);
}

BOOST_AUTO_TEST_CASE(manual_maintenance_is_never_touched) {
    const MaintenanceState manual = state(true, MaintenanceSource::manual, 0);
    for (bool ok : {false, false, false, false, true}) {
        const auto step = watchdog_step(manual, ok, true);
        BOOST_TEST((step.change == Switch::keep));
    }
    const MaintenanceState after = run(manual, {false, false, false, true});
    BOOST_TEST((after.enabled && after.source == MaintenanceSource::manual));
    // The outage is still reported once at the threshold.
    BOOST_TEST((watchdog_step(state(true, MaintenanceSource::manual, 2), false, true).alert == Alert::panel_down));
}

BOOST_AUTO_TEST_CASE(auto_maintenance_disabled_counts_and_alerts_but_never_switches) {
    const auto step = watchdog_step(state(false, MaintenanceSource::none, 2), false, false);
    BOOST_TEST((step.change == Switch::keep));
    BOOST_TEST((step.alert == Alert::panel_down));
    BOOST_TEST(!run(state(false, MaintenanceSource::none, 0), {false, false, false, false}, false).enabled);
}

BOOST_AUTO_TEST_CASE(switched_off_by_hand_during_an_outage_goes_on_again_at_the_next_failure) {
    const auto step = watchdog_step(state(false, MaintenanceSource::none, 7), false, true);
    BOOST_TEST((step.change == Switch::on && step.alert == Alert::panel_down));
}

BOOST_AUTO_TEST_CASE(alert_text_is_cut_by_characters_not_bytes) {
    std::string text;
    for (int i = 0; i < 300; ++i) text += "ж";  // 2 bytes each
    const auto cut = utf8_prefix(text, kMaintenanceAlertMaxChars);
    BOOST_TEST(cut.size() == 400u);
    std::string emoji;
    for (int i = 0; i < 250; ++i) emoji += "🛠";  // 4 bytes each
    BOOST_TEST(utf8_prefix(emoji, 200).size() == 800u);
    BOOST_TEST(utf8_prefix("short", 200) == "short");
    BOOST_TEST(utf8_prefix("aжb", 2) == "aж");
    BOOST_TEST(utf8_prefix("", 200).empty());
}

BOOST_AUTO_TEST_SUITE_END()
