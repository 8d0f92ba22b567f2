// A slow panel never stalls the pool (net/call_slots.hpp, issue 17): each process lets
// at most PANEL_CONCURRENCY requests wait on the panel; purchases beyond that are refused at
// once with 503 and Retry-After, charged nothing, while reads keep being answered.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>

#include "money_support.hpp"

using namespace it;
using namespace it::money;

BOOST_AUTO_TEST_SUITE(panel_slots)

BOOST_AUTO_TEST_CASE(purchases_beyond_the_panel_slots_get_503_and_reads_go_on) {
    // One slot per process and no queue: with the test stack's pool processes, at most that
    // many purchases can be on the panel at once.
    PoolWith pool("PANEL_CONCURRENCY=1 PANEL_QUEUE_WAIT_MS=0");
    constexpr int kBuyers = 8;
    std::vector<Shopper> buyers;
    for (int i = 0; i < kBuyers; ++i) {
        buyers.push_back(new_shopper());
        set_balance(buyers.back().tg, kStandardPrice);
    }
    const Shopper reader = new_shopper();

    slow_panel(1500, 2 * kBuyers);  // every panel call of these purchases takes 1.5 s
    std::vector<HttpResult> answers(kBuyers);
    std::atomic<int> purchases_done{0};
    std::vector<long> reads;
    int reads_before_purchases_ended = 0;
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < kBuyers; ++i)
        tasks.emplace_back([&, i] {
            answers[i] = http("POST", "/api/cabinet/purchase", {buyers[i].auth, "Content-Type: application/json"},
                              R"({"plan_id":"standard","days":30,"method":"balance"})");
            ++purchases_done;
        });
    tasks.emplace_back([&] {
        // Reads while the admitted purchases sit on the panel: every one answered.
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        for (int i = 0; i < 20; ++i) {
            reads.push_back(http("GET", "/api/cabinet/me", {reader.auth}).status);
            if (purchases_done.load() < kBuyers) ++reads_before_purchases_ended;
        }
    });
    run_together(tasks);
    panel_normal();

    BOOST_TEST(reads == std::vector<long>(20, 200), boost::test_tools::per_element());
    BOOST_TEST(reads_before_purchases_ended == 20);  // answered while purchases still waited
    int paid = 0, busy = 0;
    const Shopper* refused = nullptr;
    for (int i = 0; i < kBuyers; ++i) {
        const Books b = books(buyers[i]);
        if (answers[i].status == 200) {
            ++paid;
            BOOST_TEST(b.balance == 0);
            BOOST_TEST(b.paid_transactions == 1);
        } else {
            BOOST_TEST_REQUIRE(answers[i].status == 503);
            BOOST_TEST(answers[i].json()["detail"].GetString() == std::string("busy, try again"));
            BOOST_TEST(answers[i].headers["retry-after"] == "1");
            ++busy;
            refused = &buyers[i];
            // Refused before the panel: nothing charged, nothing recorded, no subscription.
            BOOST_TEST(b.balance == kStandardPrice);
            BOOST_TEST(b.ledger_sum == kStandardPrice);
            BOOST_TEST(b.paid_transactions == 0);
            BOOST_TEST(count("SELECT count(*) FROM subscriptions WHERE user_id = " + str(buyers[i].id)) == 0);
        }
    }
    BOOST_TEST(paid >= 1);
    BOOST_TEST(busy >= 1);
    BOOST_TEST(paid + busy == kBuyers);

    // Retried once the panel is free, a refused purchase goes through, once.
    BOOST_TEST_REQUIRE(refused != nullptr);
    BOOST_TEST(renew(*refused) == 200);
    BOOST_TEST(books(*refused).paid_transactions == 1);
    BOOST_TEST(books(*refused).balance == 0);
}

BOOST_AUTO_TEST_SUITE_END()
