// Parallel callers (issue 17): every one gets their own account, as it is after every
// change committed before the request, whichever pool thread and process answers.
#include <boost/test/unit_test.hpp>

#include <thread>

#include "money_support.hpp"

using namespace it;
using namespace it::money;

BOOST_AUTO_TEST_SUITE(parallel_accounts)

BOOST_AUTO_TEST_CASE(parallel_callers_each_get_their_own_fresh_account) {
    constexpr int kUsers = 24, kRounds = 5;
    std::vector<Shopper> users;
    for (int i = 0; i < kUsers; ++i) users.push_back(new_shopper());
    for (int round = 1; round <= kRounds; ++round) {
        // A change committed (acknowledged) before the requests: a balance per user and round.
        for (int i = 0; i < kUsers; ++i) set_balance(users[i].tg, round * 1000 + i);
        std::vector<std::string> seen(kUsers);
        std::vector<std::function<void()>> tasks;
        for (int i = 0; i < kUsers; ++i)
            tasks.emplace_back([&, i] {
                const auto r = http("GET", "/api/cabinet/me", {users[i].auth});
                if (r.status != 200) {
                    seen[i] = "status " + std::to_string(r.status);
                    return;
                }
                const auto doc = r.json();
                seen[i] = std::to_string(doc["user"]["id"].GetInt64()) + ":" +
                          std::to_string(doc["user"]["balance_minor"].GetInt64());
            });
        run_together(tasks);
        for (int i = 0; i < kUsers; ++i)
            BOOST_TEST(seen[i] == std::to_string(users[i].id) + ":" + std::to_string(round * 1000 + i),
                       "round " << round << " user " << i);
    }
}

// A request authenticated a moment before its account is deleted (a web account joined with
// a Telegram one: the merge deletes it) finds no row to lock: 401 and "sign in again", not
// a 500.
BOOST_AUTO_TEST_CASE(an_account_deleted_while_a_request_waits_for_it_is_401) {
    const Shopper s = new_shopper();
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::work hold(conn);
    hold.exec_params("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", s.id);  // as the merge holds it
    HttpResult r;
    std::thread buyer([&] {
        r = http("POST", "/api/cabinet/purchase", {s.auth, "Content-Type: application/json"},
                 R"({"plan_id":"standard","days":30,"method":"balance"})");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));  // authenticated, waiting for the lock
    hold.exec_params("DELETE FROM users WHERE id = $1", s.id);
    hold.commit();
    buyer.join();
    BOOST_TEST(r.status == 401, r.status << " " << r.body);
    BOOST_TEST(r.body.find("sign in again") != std::string::npos, r.body);
}

BOOST_AUTO_TEST_CASE(an_unknown_caller_among_known_ones_is_registered) {
    const Shopper known = new_shopper();
    const int64_t fresh = fresh_telegram_id();
    std::vector<long> status(8, 0);
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < 8; ++i)
        tasks.emplace_back([&, i] {
            status[i] = http("GET", "/api/cabinet/me", {i % 2 ? known.auth : tma_header(fresh)}).status;
        });
    run_together(tasks);
    BOOST_TEST(status == std::vector<long>(8, 200), boost::test_tools::per_element());
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + std::to_string(fresh)) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
