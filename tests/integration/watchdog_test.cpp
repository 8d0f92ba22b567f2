// The panel watchdog (`cabinetctl watchdog`, issue 6; SPEC "Maintenance mode" table):
// three failed checks in a row switch maintenance on, marked automatic, and alert the
// reporting group's alerts topic (through the worker and the Bot API fake); the panel's
// return switches it off; manual maintenance is never touched; AUTO_MAINTENANCE_ENABLED
// off never switches; a run killed midway leaves nothing behind. Panel failures come from
// the mock panel's fault injection.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "support.hpp"

using namespace it;

namespace {

// The next `times` panel requests answer 500.
void panel_fails(int times) {
    const auto r = http_url("POST", mock_panel_url("/__mock/fault"), {"Content-Type: application/json"},
                            R"({"mode":"status500","times":)" + std::to_string(times) + "}");
    BOOST_TEST_REQUIRE(r.status == 200, r.body);
}

std::pair<int, std::string> watchdog(const std::string& extra_env = {}) {
    return run((extra_env.empty() ? "" : "STACK_EXTRA_ENV='" + extra_env + "' ") + ctl("watchdog"));
}

std::string state() {
    return std::to_string(count("SELECT count(*) FROM maintenance_state WHERE enabled")) + ":" +
           std::to_string(count("SELECT coalesce(max(panel_failures), 0) FROM maintenance_state"));
}
bool automatic_on() { return count("SELECT count(*) FROM maintenance_state WHERE enabled AND source = 'auto'") == 1; }

// Clean start and end: no faults, maintenance off, no streak.
struct CleanSlate {
    CleanSlate() { reset(); }
    ~CleanSlate() {
        reset();
        wait_for_maintenance_cache();  // the next suite's bot sees it off
    }
    static void reset() {
        http_url("POST", mock_panel_url("/__mock/reset-faults"));
        run(ctl("maintenance off"));
        exec("UPDATE maintenance_state SET panel_failures = 0");
    }
};

// sendMessage calls to the alerts topic (REPORT_CHAT_ID / REPORT_TOPIC_ALERTS of the test
// stack) that the fake Bot API received after `since`.
std::vector<std::string> alerts_since(int64_t since) { return bot_messages_since(since, "-1001000000001", 77); }

}  // namespace

BOOST_AUTO_TEST_SUITE(watchdog_checks)

BOOST_AUTO_TEST_CASE(three_failures_switch_on_with_an_alert_and_the_panel_switches_off) {
    CleanSlate clean;
    const int64_t seq = journal_mark();
    const auto audit_before = count("SELECT count(*) FROM audit_log WHERE actor = 'watchdog'");
    panel_fails(3);
    for (int i = 1; i <= 2; ++i) {
        const auto [rc, out] = watchdog();
        BOOST_TEST(rc == 0, out);
        BOOST_TEST(state() == "0:" + std::to_string(i), out);
    }
    const auto [rc, out] = watchdog();
    BOOST_TEST(rc == 0, out);
    BOOST_TEST(automatic_on(), out);
    BOOST_TEST(out.find("maintenance: on (automatic)") != std::string::npos, out);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE actor = 'watchdog' AND action = 'maintenance.on'") >= 1);

    // The alert goes out once, through the worker, to the alerts topic.
    BOOST_TEST_REQUIRE(wait_until([&] { return !alerts_since(seq).empty(); }, 15000));
    const auto alerts = alerts_since(seq);
    BOOST_TEST(alerts.size() == 1u);
    BOOST_TEST(alerts[0].find("failed 3 checks in a row") != std::string::npos, alerts[0]);
    BOOST_TEST(alerts[0].find("Maintenance mode is ON") != std::string::npos, alerts[0]);

    // The panel answers again: automatic maintenance ends, the streak resets.
    const auto [rc2, out2] = watchdog();
    BOOST_TEST(rc2 == 0, out2);
    BOOST_TEST(state() == "0:0", out2);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE actor = 'watchdog'") == audit_before + 2);
    BOOST_TEST(wait_until([&] { return alerts_since(seq).size() == 2; }, 15000));
}

BOOST_AUTO_TEST_CASE(a_good_check_in_between_restarts_the_count) {
    CleanSlate clean;
    panel_fails(2);
    watchdog();
    watchdog();
    BOOST_TEST(state() == "0:2");
    watchdog();  // the panel answers
    panel_fails(2);
    watchdog();
    watchdog();
    BOOST_TEST(state() == "0:2");
}

BOOST_AUTO_TEST_CASE(manual_maintenance_is_never_touched) {
    CleanSlate clean;
    BOOST_TEST_REQUIRE(run(ctl("maintenance on")).first == 0);
    panel_fails(3);
    for (int i = 0; i < 3; ++i) watchdog();
    BOOST_TEST(count("SELECT count(*) FROM maintenance_state WHERE enabled AND source = 'manual' AND panel_failures = 3") == 1);
    const auto [rc, out] = watchdog();  // the panel is back
    BOOST_TEST(rc == 0, out);
    BOOST_TEST(count("SELECT count(*) FROM maintenance_state WHERE enabled AND source = 'manual' AND panel_failures = 0") == 1, out);
    BOOST_TEST(count("SELECT count(*) FROM audit_log WHERE actor = 'watchdog' AND at > now() - interval '1 minute'"
                     " AND action LIKE 'maintenance.%' AND id > (SELECT max(id) FROM audit_log WHERE actor = 'cabinetctl')") == 0);
}

BOOST_AUTO_TEST_CASE(auto_maintenance_disabled_only_counts) {
    CleanSlate clean;
    panel_fails(4);
    for (int i = 0; i < 4; ++i) watchdog("AUTO_MAINTENANCE_ENABLED=false");
    BOOST_TEST(state() == "0:4");
}

BOOST_AUTO_TEST_CASE(a_run_killed_midway_leaves_nothing_and_the_next_one_works) {
    CleanSlate clean;
    panel_fails(2);
    watchdog();
    watchdog();
    BOOST_TEST_REQUIRE(state() == "0:2");
    const auto checked = count("SELECT floor(extract(epoch FROM panel_checked_at) * 1000)::bigint FROM maintenance_state");

    // The panel hangs; the run is killed while it waits, holding the run lock.
    const auto r = http_url("POST", mock_panel_url("/__mock/fault"), {"Content-Type: application/json"},
                            R"({"mode":"delay","delay_ms":20000,"times":1})");
    BOOST_TEST_REQUIRE(r.status == 200);
    // Its own session, so exactly this run is killed (other test stacks may be running
    // watchdogs on the same machine).
    const std::string pidfile = env("STACK_DIR") + "/watchdog-under-test.pid";
    run("setsid sh -c \"echo \\$\\$ > " + pidfile + "; " + ctl("watchdog") + "\" >/dev/null 2>&1 &");
    BOOST_TEST_REQUIRE(wait_until([&] { return run("test -s " + pidfile).first == 0; }, 5000));
    const std::string sid = std::to_string(std::stoll(run("cat " + pidfile).second));
    const std::string running = "pgrep -s " + sid + " -f 'cabinetctl watchdog'";
    BOOST_TEST_REQUIRE(wait_until([&] { return run(running).first == 0; }, 5000));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    // A second run meanwhile does nothing: one check at a time.
    const auto [rc_busy, out_busy] = watchdog();
    BOOST_TEST(rc_busy == 0);
    BOOST_TEST(out_busy.find("another watchdog run is in progress") != std::string::npos, out_busy);
    BOOST_TEST(run("pkill -KILL -s " + sid).first == 0);
    BOOST_TEST(wait_until([&] { return run(running).first != 0; }, 5000));

    BOOST_TEST(state() == "0:2");
    BOOST_TEST(count("SELECT floor(extract(epoch FROM panel_checked_at) * 1000)::bigint FROM maintenance_state") == checked);

    // The next run is not blocked by the dead one and completes the streak.
    panel_fails(1);
    const auto [rc, out] = watchdog();
    BOOST_TEST(rc == 0, out);
    BOOST_TEST(automatic_on(), out);
}

BOOST_AUTO_TEST_SUITE_END()
