// GET /dl: opens known VPN clients only, and uses intent:// on Android.
#include <boost/test/unit_test.hpp>

#include "auth/init_data_signer.hpp"
#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(download_link)

BOOST_AUTO_TEST_CASE(known_clients_open_others_are_refused) {
    const std::string link = "hiddify://import/https://vpn.example/sub/abc";
    auto r = http("GET", "/dl?to=" + cabinet::form_encode(link));
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.headers["content-type"].find("text/html") == 0u);
    BOOST_TEST(r.body.find("href=\"" + link + "\"") != std::string::npos);

    r = http("GET", "/dl?to=" + cabinet::form_encode(link), {"User-Agent: Mozilla/5.0 (Linux; Android 14)"});
    BOOST_TEST(r.body.find("intent://import/https://vpn.example/sub/abc#Intent;scheme=hiddify;end") != std::string::npos);

    for (const std::string bad : {"https://evil.example/", "javascript:alert(1)", "happ://add/x\"><script>", ""}) {
        BOOST_TEST_CONTEXT(bad) {
            const auto b = http("GET", "/dl?to=" + cabinet::form_encode(bad));
            BOOST_TEST(b.status == 400);
            BOOST_TEST(b.json()["detail"].IsString());
        }
    }
    BOOST_TEST(http("GET", "/dl").status == 400);
}

BOOST_AUTO_TEST_SUITE_END()
