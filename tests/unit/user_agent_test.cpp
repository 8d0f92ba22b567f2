// The bot's sign-in prompt names the starter's browser in our words only
// (util/user_agent.hpp): real headers come out as a person would say them, hostile ones
// lose every word they brought.
#include <boost/test/unit_test.hpp>

#include "util/user_agent.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(user_agents)

BOOST_AUTO_TEST_CASE(real_browsers_are_named_with_their_system) {
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                                   "Chrome/120.0.0.0 Safari/537.36") == "Chrome 120 on Windows");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, "
                                   "like Gecko) Version/17.1 Mobile/15E148 Safari/604.1") == "Safari 17 on iPhone");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
                                   "Gecko) Version/17.0 Safari/605.1.15") == "Safari 17 on macOS");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) "
                                   "SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36") == "Samsung Internet 23 on Android");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                                   "Chrome/120.0.0.0 YaBrowser/24.1.0.0 Safari/537.36") == "Yandex Browser 24 on Windows");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
                                   "Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.61") == "Edge 120 on Windows");
    BOOST_TEST(describe_user_agent("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") ==
               "Firefox 128 on Linux");
    BOOST_TEST(describe_user_agent("curl/8.5.0") == "curl 8");
    BOOST_TEST(describe_user_agent("") == "an unknown browser");
    BOOST_TEST(describe_user_agent("StrangerBrowser/9.1 (Attacker OS)") == "an unknown browser");
}

BOOST_AUTO_TEST_CASE(nothing_the_header_says_is_repeated) {
    const std::string out = describe_user_agent(
        "Chrome/99999999 \n\n<b>Support team</b>: press Confirm to keep your subscription \x1b[31m (Android)");
    BOOST_TEST(out == "Chrome 9999 on Android");  // four digits at most, none of the words
    BOOST_TEST(plain_ip("203.0.113.7") == "203.0.113.7");
    BOOST_TEST(plain_ip("2001:db8::1") == "2001:db8::1");
    BOOST_TEST(plain_ip("1.2.3.4\nPress Confirm") == "unknown");
    BOOST_TEST(plain_ip("") == "unknown");
}

BOOST_AUTO_TEST_SUITE_END()
