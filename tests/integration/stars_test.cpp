// Telegram Stars end to end: purchase -> invoice link (Bot API fake) -> pre-checkout ->
// successful_payment on the bot webhook -> worker job -> GET /me shows the subscription.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(stars)

BOOST_AUTO_TEST_CASE(stars_purchase_is_fulfilled_by_the_worker_once) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Star", "ref_DEMO2026");  // referred: the ledger must get one entry
    const auto r = http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"},
                        R"({"plan_id":"standard","days":30,"method":"stars"})");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto j = r.json();
    BOOST_TEST(std::string(j["invoice_link"].GetString()).rfind("https://t.me/", 0) == 0u);
    const int64_t tx = j["transaction_id"].GetInt64();
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"].IsNull());  // nothing granted yet

    // The invoice asked the Bot API for exactly the quoted stars.
    const auto journal = http_url("GET", fake_url("/__fake/journal")).body;
    BOOST_TEST(journal.find("createInvoiceLink") != std::string::npos);
    const int64_t stars = count("SELECT (pricing->>'stars')::bigint FROM transactions WHERE id = " + std::to_string(tx));
    BOOST_TEST(stars == 230);  // ceil(29900 / 130): STARS_RATE_RUB counts minor units (1.30 ₽ a star)

    const std::string secret = env("BOT_WEBHOOK_SECRET");
    const std::string payload = std::to_string(tx);
    BOOST_TEST(bot_update(R"({"update_id":1,"pre_checkout_query":{"id":"q1","from":{"id":)" + std::to_string(tg) +
                              R"(},"currency":"XTR","total_amount":)" + std::to_string(stars) +
                              R"(,"invoice_payload":")" + payload + "\"}}",
                          secret).status == 200);
    BOOST_TEST(bot_update(R"({"update_id":1,"pre_checkout_query":{"id":"q1","from":{"id":1},"currency":"XTR","total_amount":1,"invoice_payload":"1"}})",
                          "wrong-secret").status == 403);

    const std::string paid = R"({"update_id":2,"message":{"message_id":5,"chat":{"id":)" + std::to_string(tg) +
                             R"(},"successful_payment":{"currency":"XTR","total_amount":)" + std::to_string(stars) +
                             R"(,"invoice_payload":")" + payload + R"(","telegram_payment_charge_id":"ch_)" + payload + "\"}}}";
    // Telegram may deliver an update more than once: 20 parallel deliveries, one fulfilment.
    std::vector<long> statuses(20);
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i) threads.emplace_back([&, i] { statuses[i] = bot_update(paid, secret).status; });
    for (auto& t : threads) t.join();
    BOOST_TEST(std::count(statuses.begin(), statuses.end(), 200L) == 20);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND payload->>'transaction_id' = '" + payload + "'") == 1);
    // A paid order's fulfilment retries for hours (jobs::kMoneyJobAttempts), not minutes.
    BOOST_TEST(count("SELECT max_attempts FROM jobs WHERE kind = 'fulfil_payment' AND payload->>'transaction_id' = '" + payload +
                     "'") == 20);

    BOOST_REQUIRE(wait_until([&] {
        return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + payload) == 1;
    }, 20000));
    const auto me = http("GET", "/api/cabinet/me", {auth}).json();
    BOOST_TEST(std::string(me["subscription"]["plan_name"].GetString()) == "Standard");
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "active");
    BOOST_TEST(count("SELECT count(*) FROM referral_earnings WHERE transaction_id = " + payload) == 1);
    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_TEST(std::string(pay["items"][0]["status"].GetString()) == "completed");
    BOOST_TEST(std::string(pay["items"][0]["method"].GetString()) == "stars");
}

BOOST_AUTO_TEST_CASE(underpaid_stars_grant_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const auto r = http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"},
                        R"({"plan_id":"start","days":30,"method":"stars"})");
    BOOST_REQUIRE(r.status == 200);
    const std::string payload = std::to_string(r.json()["transaction_id"].GetInt64());
    const auto res = bot_update(R"({"update_id":3,"message":{"message_id":6,"chat":{"id":1},"successful_payment":{"currency":"XTR","total_amount":1,"invoice_payload":")" +
                                    payload + R"(","telegram_payment_charge_id":"cheap"}}})",
                                env("BOT_WEBHOOK_SECRET"));
    BOOST_TEST(res.status == 200);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'failed' AND id = " + payload) == 1);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE payload->>'transaction_id' = '" + payload + "'") == 0);
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"].IsNull());
}

BOOST_AUTO_TEST_CASE(bot_api_outage_is_a_502_that_names_it_and_charges_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg, "Star");
    const auto armed = http_url("POST", fake_url("/__fake/fail"), {"Content-Type: application/json"},
                                R"({"service":"telegram","count":1,"status":500})");
    BOOST_REQUIRE_EQUAL(armed.status, 200);
    const auto r = http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"},
                        R"({"plan_id":"standard","days":30,"method":"stars"})");
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_TEST(r.status == 502);
    BOOST_TEST(std::string(r.json()["detail"].GetString()) == "Telegram Bot API unavailable");
    BOOST_TEST(http("GET", "/api/cabinet/me", {auth}).json()["subscription"].IsNull());
    BOOST_TEST(count("SELECT count(*) FROM transactions t JOIN users u ON u.id = t.user_id WHERE u.telegram_id = " +
                     std::to_string(tg) + " AND t.status <> 'failed'") == 0);
}

// The invoice title is cut at the Bot API's 32 characters, not bytes (issue 13): a byte cut
// split a Cyrillic letter, the Bot API refused the invalid UTF-8 and the buyer got a 502.
BOOST_AUTO_TEST_CASE(a_cyrillic_plan_name_is_cut_by_characters) {
    const std::string code = "cyr" + std::to_string(fresh_telegram_id());
    std::string name = "A";
    for (int i = 0; i < 20; ++i) name += "\u0416";  // Ж: 2 bytes each, so byte 32 splits one
    exec("INSERT INTO plans (public_code, name, device_limit) VALUES ('" + code + "', '" + name + "', 1)");
    exec("INSERT INTO plan_durations (plan_id, days, months, price_minor) SELECT id, 30, 1, 10000 FROM plans WHERE public_code = '" +
         code + "'");
    const int64_t tg = fresh_telegram_id();
    const int64_t mark = journal_mark();
    const auto r = http("POST", "/api/cabinet/purchase", {tma_header(tg), "Content-Type: application/json"},
                        R"({"plan_id":")" + code + R"(","days":30,"method":"stars"})");
    exec("DELETE FROM plans WHERE public_code = '" + code + "'");  // other tests count the demo catalogue
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    const auto calls = bot_api_calls("createInvoiceLink", mark);
    BOOST_REQUIRE(calls.Size() >= 1u);
    const std::string title = calls[calls.Size() - 1]["json"]["title"].GetString();
    std::string expected = "A";
    for (int i = 0; i < 20; ++i) expected += "\u0416";
    expected += ", 30 days";
    // 32 characters: "A", 20 letters, ", 30 days" is 30 characters, all of it fits.
    BOOST_TEST(title == expected);
}

BOOST_AUTO_TEST_SUITE_END()
