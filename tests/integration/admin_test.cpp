// The admin maintenance screen (/api/admin/*, issue 6): only ADMIN_IDS (by tma or JWT) get
// in; the switch is stored with who and when and audited; the host actions are audited and
// only "scheduled"; "backup now" is done by the worker; the cabinet API stays open in
// maintenance. The demo user (100000001) is the test stack's admin.
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "auth/jwt.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

// Every case starts and ends with maintenance off and no watchdog streak.
struct MaintenanceOff {
    MaintenanceOff() { reset(); }
    ~MaintenanceOff() {
        reset();
        wait_for_maintenance_cache();  // the next suite's bot sees it off
    }
    static void reset() { run(ctl("maintenance off")); }
};

HttpResult admin_post(const std::string& path, const std::string& body = "{}") {
    return http("POST", path, {admin_auth(), "Content-Type: application/json"}, body);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(admin)

BOOST_AUTO_TEST_CASE(only_admins_get_in) {
    const std::string user = tma_header(fresh_telegram_id());
    const std::vector<std::pair<std::string, std::string>> endpoints = {
        {"GET", "/api/admin/maintenance"},          {"POST", "/api/admin/maintenance/mode"},
        {"POST", "/api/admin/maintenance/backup"},  {"POST", "/api/admin/maintenance/reboot-server"},
        {"GET", "/api/admin/audit"},
    };
    const auto before = audit_rows();
    for (const auto& [method, path] : endpoints) {
        const auto anonymous = http(method, path, {"Content-Type: application/json"}, R"({"enabled":true})");
        BOOST_TEST(anonymous.status == 401, path);
        const auto r = http(method, path, {user, "Content-Type: application/json"}, R"({"enabled":true})");
        BOOST_TEST(r.status == 403, path);
        BOOST_TEST(r.json()["detail"].GetString() == std::string("admins only"));
    }
    BOOST_TEST(audit_rows() == before);
    BOOST_TEST(count("SELECT count(*) FROM maintenance_state WHERE enabled") == 0);
}

// The mini-app's maintenance notice reads /config: the switch shows there with its
// message within the pool's cache time, and is gone again after "off".
BOOST_AUTO_TEST_CASE(public_config_tells_the_maintenance_state) {
    MaintenanceOff guard;
    const auto state = [] { return http("GET", "/api/cabinet/config").json(); };
    BOOST_TEST(!state()["maintenance"]["active"].GetBool());
    BOOST_TEST(state()["maintenance"]["message"].IsNull());
    BOOST_TEST_REQUIRE(admin_post("/api/admin/maintenance/mode", R"({"enabled": true, "message": "Back at 18:00"})").status == 200);
    BOOST_TEST(wait_until([&] {
        const auto c = state();
        return c["maintenance"]["active"].GetBool() && c["maintenance"]["message"].GetString() == std::string("Back at 18:00");
    }, 5000));
    BOOST_TEST_REQUIRE(admin_post("/api/admin/maintenance/mode", R"({"enabled": false})").status == 200);
    BOOST_TEST(wait_until([&] { return !state()["maintenance"]["active"].GetBool(); }, 5000));
}

BOOST_AUTO_TEST_CASE(switch_is_stored_with_who_and_when_and_audited) {
    MaintenanceOff guard;
    const int64_t t0 = cabinet::unix_now();
    const auto r = admin_post("/api/admin/maintenance/mode", R"({"enabled": true, "message": "Back at 18:00"})");
    BOOST_TEST_REQUIRE(r.status == 200, r.body);
    const auto j = r.json();
    BOOST_TEST(j["ok"].GetBool());
    BOOST_TEST(j["maintenance"]["enabled"].GetBool());

    const auto st = http("GET", "/api/admin/maintenance", {admin_auth()}).json();
    BOOST_TEST(st["enabled"].GetBool());
    BOOST_TEST(st["source"].GetString() == std::string("manual"));
    BOOST_TEST(st["message"].GetString() == std::string("Back at 18:00"));
    BOOST_TEST(st["changed_by"].GetString() == std::string("telegram:100000001"));
    const auto changed = cabinet::parse_iso8601(st["changed_at"].GetString());
    BOOST_TEST_REQUIRE(changed.has_value());
    BOOST_TEST(*changed >= t0 - 1);

    // The cabinet API stays available in maintenance.
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(fresh_telegram_id())}).status == 200);

    const auto audit = http("GET", "/api/admin/audit?limit=5", {admin_auth()}).json();
    const auto& top = audit["items"][0];
    BOOST_TEST(top["action"].GetString() == std::string("maintenance.on"));
    BOOST_TEST(top["actor"].GetString() == std::string("telegram:100000001"));
    BOOST_TEST(top["entity"].GetString() == std::string("maintenance"));
    BOOST_TEST(top["payload"]["message"].GetString() == std::string("Back at 18:00"));

    const auto off = admin_post("/api/admin/maintenance/mode", R"({"enabled": false})");
    BOOST_TEST(off.status == 200);
    const auto st2 = http("GET", "/api/admin/maintenance", {admin_auth()}).json();
    BOOST_TEST(!st2["enabled"].GetBool());
    BOOST_TEST(st2["source"].IsNull());
    BOOST_TEST(st2["message"].GetString() != std::string("Back at 18:00"));  // the default again
}

// Telegram refuses a message without text: a blank one would leave every customer who
// writes to the bot in maintenance without an answer.
BOOST_AUTO_TEST_CASE(a_blank_maintenance_message_is_never_what_customers_get) {
    MaintenanceOff guard;
    BOOST_TEST_REQUIRE(admin_post("/api/admin/maintenance/mode", R"({"enabled": true, "message": "  "})").status == 200);
    const std::string shown = http("GET", "/api/admin/maintenance", {admin_auth()}).json()["message"].GetString();
    BOOST_TEST(shown.find_first_not_of(' ') != std::string::npos, shown);
    BOOST_TEST(wait_until([] {
        const auto c = http("GET", "/api/cabinet/config").json();
        return c["maintenance"]["active"].GetBool() && c["maintenance"]["message"].IsString() &&
               std::string(c["maintenance"]["message"].GetString()).find_first_not_of(' ') != std::string::npos;
    }, 5000));
}

BOOST_AUTO_TEST_CASE(bad_switch_requests_change_nothing) {
    MaintenanceOff guard;
    const auto before = audit_rows();
    for (const char* body : {R"({})", R"({"enabled": "yes"})", R"({"enabled": 1})", R"([true])", "not json",
                             R"({"enabled": true, "message": 5})"}) {
        const auto r = admin_post("/api/admin/maintenance/mode", body);
        BOOST_TEST(r.status == 400, body);
        BOOST_TEST(r.json().HasMember("detail"), body);
    }
    BOOST_TEST(audit_rows() == before);
    BOOST_TEST(count("SELECT count(*) FROM maintenance_state WHERE enabled") == 0);
}

BOOST_AUTO_TEST_CASE(host_actions_are_audited_and_only_scheduled) {
    for (const std::string action : {"update", "restart-panel", "restart-bot", "reboot-server"}) {
        const auto before = audit_rows("action = '" + action + "'");
        const auto r = admin_post("/api/admin/maintenance/" + action);
        BOOST_TEST_REQUIRE(r.status == 200, r.body);
        const auto j = r.json();
        BOOST_TEST(j["ok"].GetBool());
        BOOST_TEST(j["status"].GetString() == std::string("scheduled"));
        BOOST_TEST(j["action"].GetString() == action);
        BOOST_TEST(audit_rows("action = '" + action + "'") == before + 1);
        BOOST_TEST(audit_rows("id = " + std::to_string(j["audit_id"].GetInt64()) +
                              " AND actor = 'telegram:100000001' AND payload->>'status' = 'scheduled'") == 1);
    }
    const auto before = audit_rows();
    BOOST_TEST(admin_post("/api/admin/maintenance/format-disks").status == 404);
    BOOST_TEST(audit_rows() == before);
}

BOOST_AUTO_TEST_CASE(jwt_admin_gets_in_and_audit_is_paged) {
    const int64_t admin_id = count("SELECT id FROM users WHERE telegram_id = 100000001");
    const cabinet::JwtCodec jwt(env("JWT_SECRET"));
    const std::string bearer = "Authorization: Bearer " + jwt.issue(admin_id, cabinet::unix_now(), 900);
    const auto r = http("POST", "/api/admin/maintenance/restart-bot", {bearer});
    BOOST_TEST(r.status == 200, r.body);
    const auto page = http("GET", "/api/admin/audit?limit=2", {bearer}).json();
    BOOST_TEST(page["items"].Size() == 2u);
    BOOST_TEST(page["items"][0]["action"].GetString() == std::string("restart-bot"));
    BOOST_TEST(page["items"][0]["id"].GetInt64() > page["items"][1]["id"].GetInt64());  // newest first
    for (const char* bad : {"0", "201", "abc", "%zz"})
        BOOST_TEST(http("GET", std::string("/api/admin/audit?limit=") + bad, {bearer}).status == 400, bad);
}

BOOST_AUTO_TEST_CASE(backup_now_is_made_by_the_worker) {
    namespace fs = std::filesystem;
    const std::string dir = env("STACK_DIR") + "/backups";
    const auto before = fs::exists(dir) ? std::distance(fs::directory_iterator(dir), fs::directory_iterator()) : 0;
    const auto r = admin_post("/api/admin/maintenance/backup");
    BOOST_TEST_REQUIRE(r.status == 200, r.body);
    const int64_t task = r.json()["task_id"].GetInt64();
    BOOST_TEST(audit_rows("action = 'backup' AND entity = 'job:" + std::to_string(task) + "'") == 1);
    const bool done = wait_until(
        [&] { return count("SELECT count(*) FROM jobs WHERE status = 'done' AND id = " + std::to_string(task)) == 1; }, 60000);
    BOOST_TEST_REQUIRE(done, "backup job did not finish");
    BOOST_TEST(audit_rows("action = 'backup.done' AND entity = 'job:" + std::to_string(task) +
                          "' AND payload->>'file' LIKE '%.zip'") == 1);
    BOOST_TEST(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == before + 1);
}

BOOST_AUTO_TEST_SUITE_END()
