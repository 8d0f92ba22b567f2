// The cabinet's panel client against the mock panel (issue 3): every kind of failure is one
// PanelError (502); the mock keeps its state across restarts and under concurrent writes.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "panel/panel_client.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;
using cabinet::PanelClient;
using cabinet::PanelError;
using cabinet::PanelUserState;

namespace {

std::string panel_url() { return "http://127.0.0.1:" + env("PANEL_PORT"); }

PanelClient client(int64_t timeout_ms = 3000) { return PanelClient(panel_url(), "any-token", 500, timeout_ms); }

void fault(const std::string& json) {
    BOOST_REQUIRE(http_url("POST", panel_url() + "/__mock/fault", {"Content-Type: application/json"}, json).status == 200);
}

PanelUserState state(int64_t days, int64_t devices = 2) {
    return PanelUserState{cabinet::unix_now() + days * 86400, 0, devices, true};
}

template <class Fn>
bool throws_panel_error(Fn&& fn) {
    try {
        fn();
        return false;
    } catch (const PanelError& e) {
        return e.status() == 502;
    }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(panel_client)

BOOST_AUTO_TEST_CASE(round_trip_of_a_user) {
    PanelClient panel = client();
    BOOST_TEST(cabinet::version_at_least(panel.version(), cabinet::kMinPanelVersion));
    const int64_t tg = fresh_telegram_id();
    const auto created = panel.create_user("it_" + std::to_string(tg), tg, state(30, 3));
    BOOST_TEST(created.telegram_id.value() == tg);
    BOOST_TEST(created.hwid_device_limit.value() == 3);
    BOOST_TEST(panel.users_by_telegram_id(tg).size() == 1u);
    BOOST_TEST(panel.user_by_username("it_" + std::to_string(tg)).value().uuid == created.uuid);
    BOOST_TEST(!panel.user_by_username("it_" + std::to_string(tg) + "_none").has_value());
    const auto updated = panel.update_user(created.uuid, state(60, 5));
    BOOST_REQUIRE(updated.has_value());
    BOOST_TEST(updated->hwid_device_limit.value() == 5);
    BOOST_TEST(panel.disable_user(created.uuid).status == "DISABLED");
    BOOST_TEST(panel.enable_user(created.uuid).status == "ACTIVE");
    BOOST_TEST(panel.reset_traffic(created.uuid).used_traffic_bytes == 0);
    const auto revoked = panel.revoke_subscription(created.uuid);
    BOOST_TEST(revoked.short_uuid != created.short_uuid);
    BOOST_TEST(http_url("GET", created.subscription_url).status == 404);
    BOOST_TEST(http_url("GET", revoked.subscription_url).status == 200);
    panel.drop_connections(created.uuid);
    panel.delete_user(created.uuid);
    BOOST_TEST(!panel.get_user(created.uuid).has_value());
    BOOST_TEST(!panel.update_user(created.uuid, state(1)).has_value());
}

// Panels of the 2.x line before the contract's USER_NOT_FOUND answered an update of a user
// they do not have with 500 "Update user error"; the mock answers the next PATCH that way.
BOOST_AUTO_TEST_CASE(an_update_of_a_user_the_panel_no_longer_has_finds_nobody_on_older_panels_too) {
    PanelClient panel = client();
    const int64_t tg = fresh_telegram_id();
    const auto gone = panel.create_user("it_" + std::to_string(tg), tg, state(30));
    panel.delete_user(gone.uuid);
    fault(R"({"mode":"status500","times":1,"method":"PATCH"})");
    BOOST_TEST(!panel.update_user(gone.uuid, state(60)).has_value());
    fault(R"({"mode":"status500","times":1,"method":"PATCH"})");
    BOOST_TEST(!panel.disable_user(gone.uuid, "cabinet user 1").has_value());

    // A user the panel has: its 500 is a failure, not "nobody".
    const auto kept = panel.create_user("it_" + std::to_string(tg) + "_kept", std::nullopt, state(30));
    fault(R"({"mode":"status500","times":1,"method":"PATCH"})");
    BOOST_TEST(throws_panel_error([&] { panel.update_user(kept.uuid, state(60)); }));
    BOOST_TEST(panel.get_user(kept.uuid).value().expire_at == kept.expire_at);
    http_url("POST", panel_url() + "/__mock/reset-faults");
}

BOOST_AUTO_TEST_CASE(every_failure_is_one_error) {
    PanelClient panel = client(300);
    fault(R"({"mode":"status500","times":1})");
    BOOST_TEST(throws_panel_error([&] { panel.version(); }));
    fault(R"({"mode":"garbage","times":2})");  // version() tries two paths
    BOOST_TEST(throws_panel_error([&] { panel.users_by_telegram_id(1); }));
    http_url("POST", panel_url() + "/__mock/reset-faults");
    fault(R"({"mode":"delay","delay_ms":1500,"times":1})");
    BOOST_TEST(throws_panel_error([&] { panel.users_by_telegram_id(1); }));  // timeout
    http_url("POST", panel_url() + "/__mock/reset-faults");
    PanelClient nowhere("http://127.0.0.1:1", "t", 200, 300);  // connection refused
    BOOST_TEST(throws_panel_error([&] { nowhere.version(); }));
    BOOST_TEST(!panel.version().empty());  // and the same client works again afterwards
}

BOOST_AUTO_TEST_CASE(state_survives_a_restart) {
    PanelClient panel = client();
    const int64_t tg = fresh_telegram_id();
    const auto created = panel.create_user("it_" + std::to_string(tg), tg, state(10));
    stack_svc("stop", "mock-panel");
    stack_svc("start", "mock-panel");
    BOOST_REQUIRE(wait_for_status_url(panel_url() + "/api/system/health", 200));
    const auto again = panel.get_user(created.uuid);
    BOOST_REQUIRE(again.has_value());
    BOOST_TEST(again->short_uuid == created.short_uuid);
    BOOST_TEST(again->expire_at == created.expire_at);
}

BOOST_AUTO_TEST_CASE(fifty_parallel_updates_lose_none) {
    const int64_t tg = fresh_telegram_id();
    const auto user = client().create_user("it_" + std::to_string(tg), tg, state(1));
    // Fifty parallel writers each create a user and update the shared one: every creation
    // must be there afterwards, and the shared user must hold one writer's whole update.
    constexpr int kWriters = 50;
    std::vector<std::string> created(kWriters);
    std::vector<std::thread> threads;
    for (int i = 0; i < kWriters; ++i)
        threads.emplace_back([&, i] {
            PanelClient p = client();
            created[i] = p.create_user("it_" + std::to_string(tg) + "_" + std::to_string(i), std::nullopt, state(1)).uuid;
            p.update_user(user.uuid, PanelUserState{cabinet::unix_now() + (i + 1) * 86400, 0, i + 1, true});
        });
    for (auto& t : threads) t.join();
    PanelClient panel = client();
    for (const auto& uuid : created) BOOST_TEST(panel.get_user(uuid).has_value());
    const auto final_user = panel.get_user(user.uuid).value();
    const int64_t devices = final_user.hwid_device_limit.value();
    BOOST_TEST((devices >= 1 && devices <= kWriters));
    // expiry and device limit come from the same writer: no torn update
    BOOST_TEST(std::llabs(final_user.expire_at - (cabinet::unix_now() + devices * 86400)) < 120);
}

BOOST_AUTO_TEST_SUITE_END()
