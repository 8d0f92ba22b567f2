// Operator commands: migrations and demo seed are idempotent; bad settings stop a process
// at start with the variable's name.
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstdio>

#include "support.hpp"

using namespace it;

namespace {
BOOST_AUTO_TEST_CASE(seed_demo_twice_changes_nothing) {
    const auto plans = count("SELECT count(*) FROM plans");
    const auto durations = count("SELECT count(*) FROM plan_durations");
    const auto demo = count("SELECT count(*) FROM users WHERE telegram_id = 100000001");
    BOOST_TEST(plans == 3);
    BOOST_TEST(demo == 1);
    BOOST_TEST(run(ctl("seed-demo")).first == 0);
    BOOST_TEST(count("SELECT count(*) FROM plans") == plans);
    BOOST_TEST(count("SELECT count(*) FROM plan_durations") == durations);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.telegram_id = 100000001") == 1);
}

BOOST_AUTO_TEST_CASE(invalid_setting_stops_the_pool_naming_it) {
    const auto [rc, out] = run("TRIAL_DURATION_DAYS=three '" CABINET_FCGI_BIN "' --listen unix:/tmp/never.sock --threads 1");
    BOOST_TEST(rc == 2);
    BOOST_TEST(out.find("TRIAL_DURATION_DAYS") != std::string::npos);
    const auto [rc2, out2] = run("BOT_TOKEN= '" CABINET_FCGI_BIN "' --threads 1");
    BOOST_TEST(rc2 == 2);
    BOOST_TEST(out2.find("BOT_TOKEN") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(user_transactions_view_lists_the_history) {
    const auto [rc, out] = run(ctl("user transactions --telegram-id 100000001"));
    BOOST_TEST(rc == 0);
    BOOST_TEST(out.find("id\tat\ttype\tstatus") != std::string::npos);
    const auto [rc2, out2] = run(ctl("user transactions --telegram-id 1"));
    BOOST_TEST(rc2 == 0);  // an unknown user simply has no history
}

BOOST_AUTO_TEST_SUITE_END()
