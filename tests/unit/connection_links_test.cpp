// api/connection_links: the client apps of GET /connection, as the connect screen reads them
// (the store pages are written from text rendered once, so the JSON around them is checked
// whole here: a misplaced comma would break every client's connect screen).
#include <boost/test/unit_test.hpp>

#include "api/connection_links.hpp"

using namespace cabinet;

namespace {
const std::string kUrl = "https://sub.example.com/sub/abc\"def";  // a quote, to be escaped

rapidjson::Document apps_of(const std::vector<std::string>& apps, const std::string& crypto_link) {
    Settings s;
    s.connection_apps = apps;
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("before");
    w.Bool(true);
    w.Key("apps");
    api::write_apps(w, s, kUrl, crypto_link);
    w.Key("after");
    w.Bool(true);
    w.EndObject();
    rapidjson::Document d;
    d.Parse(buf.GetString());
    BOOST_REQUIRE_MESSAGE(!d.HasParseError(), buf.GetString());
    BOOST_TEST(d["before"].GetBool());
    BOOST_TEST(d["after"].GetBool());
    return d;
}

std::string str(const rapidjson::Value& v) { return {v.GetString(), v.GetStringLength()}; }
}  // namespace

BOOST_AUTO_TEST_SUITE(connection_links)

BOOST_AUTO_TEST_CASE(apps_come_in_the_configured_order_with_their_stores) {
    const auto d = apps_of({"hiddify", "streisand", "happ"}, "");
    const auto& apps = d["apps"];
    BOOST_REQUIRE(apps.IsArray());
    BOOST_REQUIRE(apps.Size() == 3u);
    BOOST_TEST(str(apps[0]["key"]) == "hiddify");
    BOOST_TEST(str(apps[0]["label"]) == "Hiddify");
    BOOST_TEST(str(apps[0]["deep_link"]) == "hiddify://import/" + kUrl);
    BOOST_TEST(str(apps[1]["key"]) == "streisand");
    BOOST_TEST(str(apps[2]["deep_link"]) == "happ://add/" + kUrl);
    for (const auto& app : apps.GetArray()) {
        const auto& stores = app["stores"];
        BOOST_REQUIRE(stores.IsObject());
        BOOST_TEST(stores.MemberCount() == 6u);
        for (const char* os : {"ios", "android", "macos", "windows", "linux", "default"}) {
            BOOST_REQUIRE_MESSAGE(stores.HasMember(os), str(app["key"]) << " has no " << os << " store");
            BOOST_TEST(str(stores[os]).rfind("https://", 0) == 0u);
        }
    }
    BOOST_TEST(str(apps[0]["stores"]["android"]) == "https://play.google.com/store/apps/details?id=app.hiddify.com");
    BOOST_TEST(str(apps[2]["stores"]["default"]) == "https://www.happ.su/");
}

BOOST_AUTO_TEST_CASE(happ_links_to_the_crypto_link_when_the_panel_has_one) {
    const auto d = apps_of({"happ", "v2raytun"}, "happ://crypt4/xyz");
    BOOST_TEST(str(d["apps"][0]["deep_link"]) == "happ://crypt4/xyz");
    BOOST_TEST(str(d["apps"][1]["deep_link"]) == "v2raytun://import/" + kUrl);
}

BOOST_AUTO_TEST_CASE(no_apps_configured_gives_an_empty_list) {
    const auto d = apps_of({}, "");
    BOOST_TEST(d["apps"].IsArray());
    BOOST_TEST(d["apps"].Size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
