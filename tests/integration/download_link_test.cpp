// GET /dl: opens the import links GET /connection hands out (a known client + this shop's
// subscription URL) and nothing else, uses intent:// on Android, and keeps the link out of
// nginx's access log.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "auth/init_data_signer.hpp"
#include "support.hpp"
#include "util/strings.hpp"

using namespace it;

namespace {

// Where the stack's subscription links live (SUBSCRIPTION_PUBLIC_URL defaults to the panel).
std::string sub_base() { return env("PANEL__BASE_URL"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(download_link)

BOOST_AUTO_TEST_CASE(known_clients_open_this_shops_links) {
    const std::string url = sub_base() + "/sub/abc";
    const std::string link = "hiddify://import/" + url;
    auto r = http("GET", "/dl?to=" + cabinet::form_encode(link));
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.headers["content-type"].find("text/html") == 0u);
    BOOST_TEST(r.body.find("href=\"" + link + "\"") != std::string::npos);

    r = http("GET", "/dl?to=" + cabinet::form_encode(link), {"User-Agent: Mozilla/5.0 (Linux; Android 14)"});
    BOOST_TEST(r.body.find("intent://import/" + url + "#Intent;scheme=hiddify;end") != std::string::npos);

    for (const std::string prefix : {"happ://add/", "v2raytun://import/", "streisand://import/"})
        BOOST_TEST(http("GET", "/dl?to=" + cabinet::form_encode(prefix + url)).status == 200, prefix);
}

// The panel's encrypted Happ link cannot be read, but it can be looked up: /dl opens the
// one GET /connection hands out for a subscription of ours.
BOOST_AUTO_TEST_CASE(our_encrypted_happ_link_opens) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/trial", {auth}).status, 200);
    const std::string crypt = "happ://crypt3/" + std::to_string(tg) + "QUJDREVGR0g";
    exec("UPDATE subscriptions SET crypto_link = '" + crypt + "' WHERE user_id = (SELECT id FROM users WHERE telegram_id = " +
         std::to_string(tg) + ")");
    const auto conn = http("GET", "/api/cabinet/connection", {auth});
    BOOST_REQUIRE_EQUAL(conn.status, 200);
    BOOST_TEST(conn.body.find(crypt) != std::string::npos);  // the happ deep link is this one
    const auto r = http("GET", "/dl?to=" + cabinet::form_encode(crypt));
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.body.find("href=\"" + crypt + "\"") != std::string::npos);
    BOOST_TEST(http("GET", "/dl?to=" + cabinet::form_encode(crypt + "X")).status == 400);
}

BOOST_AUTO_TEST_CASE(anything_else_is_refused) {
    const std::string base = sub_base();  // http://127.0.0.1:PORT
    const std::vector<std::string> refused = {
        "https://evil.example/", "javascript:alert(1)", "",
        "happ://add/x\"><script>",
        "hiddify://import/https://evil.example/sub/abc",          // someone else's profile
        "hiddify://import/" + base + ".evil.example/sub/abc",     // our host as a prefix of theirs
        "hiddify://import/" + base + "@evil.example/sub/abc",     // our host as a user name
        "hiddify://import/" + base,                               // no subscription at all
        "hiddify://import/" + base + "/",
        "happ://add/javascript:alert(1)",
        "happ://crypt3/" + std::string(40, 'A'),                 // opaque, and not one of ours
        "hiddify://" + base + "/sub/abc",                         // not an import path
        "vless://uuid@" + base.substr(7) + ":443",
        "hiddify://import/" + base + "/sub/a\tb",
    };
    for (const auto& bad : refused) {
        BOOST_TEST_CONTEXT(bad) {
            const auto b = http("GET", "/dl?to=" + cabinet::form_encode(bad));
            BOOST_TEST(b.status == 400);
            BOOST_TEST(b.json()["detail"].IsString());
        }
    }
    BOOST_TEST(http("GET", "/dl").status == 400);
}

// A subscription URL is a credential: nginx logs /dl's path, never its query.
BOOST_AUTO_TEST_CASE(the_link_never_reaches_the_access_log) {
    const std::string secret = "s3cr3t" + std::to_string(fresh_telegram_id());
    for (const std::string path : {"/dl?to=", "//dl?to=", "/%64l?to="}) {
        BOOST_TEST_CONTEXT(path) {
            auto r = http("GET", path + cabinet::form_encode("happ://add/" + sub_base() + "/sub/" + secret));
            if (path == "/dl?to=") BOOST_TEST(r.status == 200);  // the app routes only the plain path
            const std::string rid = r.headers["x-request-id"];
            BOOST_REQUIRE(!rid.empty());
            // The local stack's access log is buffered (flush=1s): wait for this request's line.
            BOOST_REQUIRE(wait_until([&] { return nginx_access_log().find("rid=" + rid) != std::string::npos; }, 5000));
        }
    }
    const std::string log = nginx_access_log();
    BOOST_TEST(log.find(secret) == std::string::npos);
    BOOST_TEST(log.find("\"GET /dl HTTP/1.1\" 200") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
