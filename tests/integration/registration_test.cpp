// First contact through the mini-app creates the user (SPEC "Authentication" 3).
#include <boost/test/unit_test.hpp>

#include <thread>

#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(registration)

BOOST_AUTO_TEST_CASE(first_contact_creates_user_with_event_and_referrer) {
    const int64_t tg = fresh_telegram_id();
    cabinet::TelegramUser u;
    u.id = tg;
    u.first_name = "Анна";
    u.username = "anna";
    u.language_code = "ru";
    const auto r = http("GET", "/api/cabinet/me", {tma_header_for(u, "ref_DEMO2026")});
    BOOST_REQUIRE(r.status == 200);
    const auto me = r.json();
    BOOST_TEST(std::string(me["user"]["first_name"].GetString()) == "Анна");
    BOOST_TEST(std::string(me["user"]["language"].GetString()) == "ru");
    BOOST_TEST(std::string(me["user"]["referral_code"].GetString()).size() == 8u);
    BOOST_TEST(me["subscription"].IsNull());
    const std::string where = " WHERE telegram_id = " + std::to_string(tg);
    BOOST_TEST(count("SELECT count(*) FROM users" + where) == 1);
    BOOST_TEST(count("SELECT count(*) FROM users u JOIN users r ON r.id = u.referred_by AND r.referral_code = 'DEMO2026'"
                     " WHERE u.telegram_id = " + std::to_string(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id AND e.kind = 'registration'" + where) == 1);

    // A second contact with a changed name updates the profile, creates nothing.
    u.first_name = "Anna";
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header_for(u)}).json()["user"]["first_name"].GetString() == std::string("Anna"));
    BOOST_TEST(count("SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id" + where) == 1);
}

BOOST_AUTO_TEST_CASE(english_client_gets_english_and_unknown_referral_is_ignored) {
    const int64_t tg = fresh_telegram_id();
    const auto r = http("GET", "/api/cabinet/me", {tma_header(tg, "Bob", "ref_NOSUCHCODE")});
    BOOST_REQUIRE(r.status == 200);
    BOOST_TEST(std::string(r.json()["user"]["language"].GetString()) == "en");
    BOOST_TEST(count("SELECT count(*) FROM users WHERE referred_by IS NULL AND telegram_id = " + std::to_string(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(parallel_first_contact_creates_exactly_one_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string header = tma_header(tg, "Racer");
    constexpr int kParallel = 40;
    std::vector<long> statuses(kParallel);
    std::vector<int64_t> ids(kParallel);
    std::vector<std::thread> threads;
    for (int i = 0; i < kParallel; ++i)
        threads.emplace_back([&, i] {
            const auto r = http("GET", "/api/cabinet/me", {header});
            statuses[i] = r.status;
            if (r.status == 200) ids[i] = r.json()["user"]["id"].GetInt64();
        });
    for (auto& t : threads) t.join();
    for (int i = 0; i < kParallel; ++i) {
        BOOST_TEST(statuses[i] == 200);
        BOOST_TEST(ids[i] == ids[0]);
    }
    const std::string where = " WHERE telegram_id = " + std::to_string(tg);
    BOOST_TEST(count("SELECT count(*) FROM users" + where) == 1);
    BOOST_TEST(count("SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id AND e.kind = 'registration'" + where) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
