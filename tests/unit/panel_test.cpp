// Panel answers decode into typed values; anything off-contract is one PanelError.
#include <boost/test/unit_test.hpp>

#include "panel/panel_client.hpp"
#include "panel/panel_json.hpp"
#include "util/time.hpp"

using namespace cabinet;

namespace {
// An ExtendedUser as @remnawave/backend-contract 2.7.2 describes it.
const char* kUser = R"({"response":{"uuid":"3f0e5a0c-1b2a-4c3d-9e8f-001122334455","id":7,"shortUuid":"Ab3dE6gH9k",
 "username":"tg_100000001","status":"ACTIVE","trafficLimitBytes":10737418240,"trafficLimitStrategy":"NO_RESET",
 "expireAt":"2026-12-21T20:52:35.123Z","telegramId":100000001,"email":null,"description":null,"tag":null,
 "hwidDeviceLimit":3,"externalSquadUuid":null,"trojanPassword":"x","vlessUuid":"3f0e5a0c-1b2a-4c3d-9e8f-001122334456",
 "ssPassword":"y","lastTriggeredThreshold":0,"subRevokedAt":null,"lastTrafficResetAt":null,
 "createdAt":"2026-11-21T20:52:35.000Z","updatedAt":"2026-11-21T20:52:35.000Z",
 "subscriptionUrl":"http://127.0.0.1:3010/sub/Ab3dE6gH9k","activeInternalSquads":[],
 "userTraffic":{"usedTrafficBytes":1048576,"lifetimeUsedTrafficBytes":2097152,"onlineAt":null,"firstConnectedAt":null,
 "lastConnectedNodeUuid":null}}})";

PanelUser decode(const std::string& body) {
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    return panel_json::user_from(panel_json::response_of(doc, body));
}
}  // namespace

BOOST_AUTO_TEST_SUITE(panel)

BOOST_AUTO_TEST_CASE(user_decodes) {
    const PanelUser u = decode(kUser);
    BOOST_TEST(u.short_uuid == "Ab3dE6gH9k");
    BOOST_TEST(u.traffic_limit_bytes == 10737418240LL);
    BOOST_TEST(u.used_traffic_bytes == 1048576);
    BOOST_TEST(u.expire_at == parse_iso8601("2026-12-21T20:52:35Z").value());
    BOOST_TEST(u.telegram_id.value() == 100000001);
    BOOST_TEST(u.hwid_device_limit.value() == 3);
    BOOST_TEST(u.subscription_url == "http://127.0.0.1:3010/sub/Ab3dE6gH9k");
}

BOOST_AUTO_TEST_CASE(garbage_is_one_error) {
    BOOST_CHECK_THROW(decode("<html>502</html>"), PanelError);
    BOOST_CHECK_THROW(decode(R"({"message":"x"})"), PanelError);
    BOOST_CHECK_THROW(decode(R"({"response":{"uuid":1}})"), PanelError);
    BOOST_CHECK_THROW(decode(R"({"response":[]})"), PanelError);
    try {
        decode("nope");
    } catch (const PanelError& e) {
        BOOST_TEST(e.status() == 502);
    }
}

// GetAllUsersCommand's page: the users and the panel's total.
BOOST_AUTO_TEST_CASE(user_page_decodes) {
    const std::string user = std::string(kUser).substr(12, std::string(kUser).size() - 13);  // the user object
    const std::string body = R"({"response":{"users":[)" + user + "," + user + R"(],"total":1000001}})";
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    const PanelUserPage page = panel_json::user_page_from(panel_json::response_of(doc, body));
    BOOST_TEST(page.total == 1000001);
    BOOST_REQUIRE(page.users.size() == 2u);
    BOOST_TEST(page.users[1].used_traffic_bytes == 1048576);
    for (const char* bad : {R"({"response":{"users":[]}})", R"({"response":{"total":1}})",
                            R"({"response":{"users":{},"total":1}})", R"({"response":[]})"}) {
        const std::string b = bad;
        rapidjson::Document d;
        d.Parse<kStrictParse>(b.data(), b.size());
        BOOST_CHECK_THROW(panel_json::user_page_from(panel_json::response_of(d, b)), PanelError);
    }
}

BOOST_AUTO_TEST_CASE(versions) {
    BOOST_TEST(version_at_least("2.8.4", kMinPanelVersion));
    BOOST_TEST(version_at_least("v2.1.0", "2.1.0"));
    BOOST_TEST(version_at_least("3.0", "2.1.0"));
    BOOST_TEST(!version_at_least("2.0.9", "2.1.0"));
    BOOST_TEST(!version_at_least("1.6.3", "2.1.0"));
    BOOST_TEST(!version_at_least("garbage", "2.1.0"));
    BOOST_TEST(version_at_least("2.7.0-beta", "2.7.0"));
}

BOOST_AUTO_TEST_CASE(iso_dates) {
    BOOST_TEST(parse_iso8601("1970-01-01T00:00:00Z").value() == 0);
    BOOST_TEST(parse_iso8601("1970-01-01T03:00:00+03:00").value() == 0);
    BOOST_TEST(parse_iso8601("2026-11-21T20:44:24.5Z").value() == 1795293864);
    BOOST_TEST(!parse_iso8601("2026-13-01T00:00:00Z"));
    BOOST_TEST(!parse_iso8601("yesterday"));
    BOOST_TEST(!parse_iso8601("2026-11-21T20:44:24Zjunk"));
}

BOOST_AUTO_TEST_SUITE_END()
