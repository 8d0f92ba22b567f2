// nginx's flood shields (nginx/cabinet_locations.conf): one address may start at most a
// burst of 60 web logins plus 1 a second, send reset-link at most a burst of 30 plus 1 a
// second whatever credentials it makes up, and ask for mails (forgot password, verification
// again) at most a burst of 20 plus 10 a minute; the rest get nginx's JSON 429. Named zzz_ to
// run after every suite that starts logins or resets links, since the buckets are shared
// by the whole run (all tests come from 127.0.0.1).
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(login_start_flood)

BOOST_AUTO_TEST_CASE(a_flood_of_telegram_login_starts_is_cut_off_by_nginx) {
    const auto rows_before = count("SELECT count(*) FROM telegram_codes");
    std::atomic<int> ok{0}, limited{0}, other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&] {
            for (int i = 0; i < 50; ++i) {
                const auto r = http("POST", "/api/cabinet/auth/telegram/start", {"Content-Type: application/json"}, "{}");
                if (r.status == 200) ++ok;
                else if (r.status == 429 && r.json()["detail"].IsString()) ++limited;
                else ++other;
            }
        });
    for (auto& th : threads) th.join();
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(limited.load() >= 100);   // 200 asked, at most 60 + a few per second let through
    BOOST_TEST(ok.load() <= 90);
    BOOST_TEST(count("SELECT count(*) FROM telegram_codes") - rows_before == ok.load());
}

// A credential of its own per request (here made-up Telegram users, which nginx cannot
// check) used to be a flood shield of its own per request.
BOOST_AUTO_TEST_CASE(a_flood_of_reset_links_with_made_up_credentials_is_cut_off_by_nginx) {
    std::atomic<int> refused_by_app{0}, limited{0}, other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 20; ++i) {
                const std::string forged = "Authorization: tma user=%7B%22id%22%3A" + std::to_string(900000000 + t * 100 + i) +
                                           "%7D&auth_date=1&hash=00";
                const auto r = http("POST", "/api/cabinet/subscription/reset-link", {forged});
                if (r.status == 401) ++refused_by_app;
                else if (r.status == 429 && r.json()["detail"].IsString()) ++limited;
                else ++other;
            }
        });
    for (auto& th : threads) th.join();
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(limited.load() >= 30);  // 80 sent: at most 30 + a few per second reach the pool
    BOOST_TEST(refused_by_app.load() <= 50);
}

// "Forgot password" and "send the verification mail again" may each send a mail: one
// address gets a burst of 20 plus 10 a minute of them together, the rest nginx's 429.
BOOST_AUTO_TEST_CASE(a_flood_of_forgot_password_requests_is_cut_off_by_nginx) {
    std::atomic<int> ok{0}, limited{0}, other{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 15; ++i) {
                const std::string email = "flood" + std::to_string(t * 100 + i) + "@example.test";
                const auto r = http("POST", std::string("/api/cabinet/auth/") + (i % 2 ? "password/forgot" : "verify/resend"),
                                    {"Content-Type: application/json"}, R"({"email":")" + email + R"("})");
                if (r.status == 200) ++ok;
                else if (r.status == 429 && r.json()["detail"].IsString()) ++limited;
                else ++other;
            }
        });
    for (auto& th : threads) th.join();
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(ok.load() <= 25);
    BOOST_TEST(limited.load() >= 35);
}

BOOST_AUTO_TEST_SUITE_END()
