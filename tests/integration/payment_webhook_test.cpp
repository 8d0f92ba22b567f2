// POST /api/v1/payments/{gateway} through nginx, against the fakes of YooKassa and
// CryptoBot (tests/fakes): only a payment the provider itself confirms is credited, once,
// however often the notification comes; everything else changes nothing.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <thread>

#include "config/settings.hpp"
#include "payments/cryptobot.hpp"
#include "money_support.hpp"
#include "payments/yookassa.hpp"
#include "payment_webhook_support.hpp"
#include "support.hpp"

using namespace it;
using namespace it::webhooks;

BOOST_AUTO_TEST_SUITE(payment_webhook)

BOOST_AUTO_TEST_CASE(yookassa_create_sends_the_documented_request) {
    const auto s = cabinet::load_settings_from_environment();
    cabinet::YooKassa gw(s);
    const int64_t txn = pending_purchase("yookassa");
    const std::string id = checkout(gw, txn);
    const auto journal = http_url("GET", fake_url("/__fake/journal?service=yookassa&path=/v3/payments")).json();
    const rapidjson::Value* sent = nullptr;
    for (const auto& e : journal.GetArray())
        if (e["json"].IsObject() && e["json"].HasMember("metadata") &&
            str_of(e["json"]["metadata"]["transaction_id"]) == std::to_string(txn))
            sent = &e;
    BOOST_REQUIRE(sent);
    BOOST_TEST(str_of((*sent)["headers"]["idempotence-key"]) == "cabinet-txn-" + std::to_string(txn));
    BOOST_TEST(std::string((*sent)["headers"]["authorization"].GetString()).rfind("Basic ", 0) == 0u);
    BOOST_TEST(str_of((*sent)["json"]["amount"]["value"]) == "299.00");
    BOOST_TEST(str_of((*sent)["json"]["amount"]["currency"]) == "RUB");
    BOOST_TEST((*sent)["json"]["capture"].GetBool());
    BOOST_TEST(str_of((*sent)["json"]["confirmation"]["type"]) == "redirect");
    // The same idempotence key gives the same payment, not a second charge.
    BOOST_TEST(gw.create(checkout_for(txn)).provider_payment_id == id);
}

BOOST_AUTO_TEST_CASE(yookassa_succeeded_is_credited_once_under_replays) {
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("yookassa");
    const std::string note = yookassa_set(checkout(gw, txn), R"({"status":"succeeded"})");
    const auto first = notify("yookassa", note);
    BOOST_REQUIRE_MESSAGE(accepted(first), first.status << " " << first.body);
    BOOST_TEST(paid(txn));
    BOOST_TEST(jobs_for(txn) == 1);
    const int64_t paid_at = count("SELECT (extract(epoch FROM paid_at) * 1e6)::bigint" + where(txn));

    std::atomic<int> ok{0};
    std::vector<std::thread> replays;
    for (int i = 0; i < 20; ++i)
        replays.emplace_back([&] {
            if (accepted(deliver("yookassa", note))) ++ok;
        });
    for (auto& t : replays) t.join();
    BOOST_TEST(ok.load() == 20);
    BOOST_TEST(jobs_for(txn) == 1);
    BOOST_TEST(count("SELECT (extract(epoch FROM paid_at) * 1e6)::bigint" + where(txn)) == paid_at);
}

BOOST_AUTO_TEST_CASE(yookassa_notification_is_not_believed) {
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("yookassa");
    const std::string id = checkout(gw, txn);
    // The body claims success; the provider, asked back, says pending.
    rapidjson::Document forged;
    forged.Parse(yookassa_set(id, "{}").c_str());
    forged["event"].SetString("payment.succeeded");
    forged["object"]["status"].SetString("succeeded");
    const auto r = notify("yookassa", to_json(forged));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(!r.json()["accepted"].GetBool());
    BOOST_TEST(!paid(txn));
    BOOST_TEST(status_is(txn, "pending"));
    BOOST_TEST(jobs_for(txn) == 0);
}

BOOST_AUTO_TEST_CASE(yookassa_underpaid_fails_the_payment) {
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("yookassa");
    const std::string note = yookassa_set(checkout(gw, txn), R"({"status":"succeeded","amount":"298.99"})");
    const auto r = notify("yookassa", note);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(!r.json()["accepted"].GetBool());
    BOOST_TEST(status_is(txn, "failed"));
    BOOST_TEST(!paid(txn));
    BOOST_TEST(jobs_for(txn) == 0);
}

BOOST_AUTO_TEST_CASE(yookassa_canceled_cancels_a_pending_payment) {
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("yookassa");
    const auto r = notify("yookassa", yookassa_set(checkout(gw, txn), R"({"status":"canceled"})"));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(!r.json()["accepted"].GetBool());
    BOOST_TEST(status_is(txn, "canceled"));
    BOOST_TEST(jobs_for(txn) == 0);
}

BOOST_AUTO_TEST_CASE(yookassa_unknown_payment_bad_body_and_outage) {
    const std::string unknown = R"({"type":"notification","event":"payment.succeeded","object":{"id":"2f000000-000f-5000-9000-000000000000","status":"succeeded"}})";
    BOOST_TEST(notify("yookassa", unknown).status == 404);
    BOOST_TEST(notify("yookassa", "{not json").status == 400);
    BOOST_TEST(notify("yookassa", R"({"event":"payment.succeeded","object":{"id":"../../etc"}})").status == 400);
    BOOST_TEST(notify("nosuchpay", "{}").status == 404);

    // The API is down while we verify: 502 and nothing changes; YooKassa retries later.
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("yookassa");
    const std::string note = yookassa_set(checkout(gw, txn), R"({"status":"succeeded"})");
    FakeFailures cleanup;
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/fail"), kJsonHeaders, R"({"service":"yookassa","count":1})").status == 200);
    BOOST_TEST(notify("yookassa", note).status == 502);
    BOOST_TEST(!paid(txn));
    BOOST_TEST(accepted(notify("yookassa", note)));  // the retry
    BOOST_TEST(paid(txn));
}

BOOST_AUTO_TEST_CASE(cryptobot_signed_invoice_paid_is_credited) {
    const auto s = cabinet::load_settings_from_environment();
    cabinet::CryptoBot gw(s);
    const int64_t txn = pending_purchase("cryptobot");
    const std::string invoice = checkout(gw, txn);
    const auto sent = http_url("GET", fake_url("/__fake/journal?service=cryptobot&path=/api/createInvoice")).json();
    const auto& last = sent[sent.Size() - 1];
    BOOST_TEST(str_of(last["headers"]["crypto-pay-api-token"]) == s.cryptobot_token);
    BOOST_TEST(str_of(last["json"]["amount"]) == "299.00");
    BOOST_TEST(str_of(last["json"]["fiat"]) == "RUB");
    BOOST_TEST(str_of(last["json"]["payload"]) == std::to_string(txn));

    const auto hook = http_url("POST", fake_url("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, "{}").json();
    const std::string body = hook["body"].GetString();
    const std::string sig = "crypto-pay-api-signature: " + std::string(hook["signature"].GetString());
    BOOST_TEST(cabinet::cryptobot_signature(s.cryptobot_token, body) == hook["signature"].GetString());
    const auto r = notify("cryptobot", body, {"Content-Type: application/json", sig});
    BOOST_REQUIRE_MESSAGE(accepted(r), r.status << " " << r.body);
    BOOST_TEST(paid(txn));
    BOOST_TEST(accepted(notify("cryptobot", body, {"Content-Type: application/json", sig})));  // replay
    BOOST_TEST(jobs_for(txn) == 1);
}

BOOST_AUTO_TEST_CASE(cryptobot_forged_signature_is_refused) {
    const auto s = cabinet::load_settings_from_environment();
    cabinet::CryptoBot gw(s);
    const int64_t txn = pending_purchase("cryptobot");
    const std::string invoice = checkout(gw, txn);
    const auto hook = http_url("POST", fake_url("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders,
                               R"({"token":"12345:not-our-token"})").json();
    const std::string body = hook["body"].GetString();
    BOOST_TEST(notify("cryptobot", body, {"crypto-pay-api-signature: " + std::string(hook["signature"].GetString())}).status == 403);
    BOOST_TEST(notify("cryptobot", body).status == 403);  // no signature at all
    BOOST_TEST(notify("cryptobot", body, {"crypto-pay-api-signature: zz"}).status == 403);
    // Signed correctly, then one byte of the body changed.
    std::string tampered = body;
    tampered.back() = tampered.back() == '}' ? ' ' : '}';
    BOOST_TEST(notify("cryptobot", tampered, {"crypto-pay-api-signature: " + cabinet::cryptobot_signature(s.cryptobot_token, body)}).status == 403);
    BOOST_TEST(!paid(txn));
    BOOST_TEST(status_is(txn, "pending"));
    BOOST_TEST(jobs_for(txn) == 0);
}

BOOST_AUTO_TEST_CASE(cryptobot_underpaid_fails_the_payment) {
    cabinet::CryptoBot gw(cabinet::load_settings_from_environment());
    const int64_t txn = pending_purchase("cryptobot");
    const std::string invoice = checkout(gw, txn);
    const auto hook = http_url("POST", fake_url("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, R"({"amount":"100.00"})").json();
    const auto r = notify("cryptobot", hook["body"].GetString(), {"crypto-pay-api-signature: " + std::string(hook["signature"].GetString())});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(!r.json()["accepted"].GetBool());
    BOOST_TEST(status_is(txn, "failed"));
    BOOST_TEST(jobs_for(txn) == 0);
}

BOOST_AUTO_TEST_CASE(disabled_gateway_has_no_webhook) {
    stack_svc("stop", "pool");
    stack_svc("start", "pool", "CRYPTOBOT_ENABLED=false");
    const long status = notify("cryptobot", "{}", {"crypto-pay-api-signature: 00"}).status;
    stack_svc("stop", "pool");
    stack_svc("start", "pool");
    BOOST_TEST(status == 404);
    BOOST_TEST(wait_for_status("/health", 200));
}

// A webhook storm (issue 17): beyond nginx's 4 notifications per host in the pool
// (cabinet_locations.conf) or GATEWAY_CONCURRENCY verifications per pool process
// (net/call_slots.hpp) a notification is answered 503 busy with Retry-After before the
// provider is asked, and changes nothing; /me is answered meanwhile; posted again after the
// Retry-After, as YooKassa retries, every payment is fulfilled exactly once.
BOOST_AUTO_TEST_CASE(yookassa_storm_beyond_the_gateway_slots_is_refused_busy_then_fulfilled_once) {
    PoolWith pool("GATEWAY_CONCURRENCY=1 GATEWAY_QUEUE_WAIT_MS=0");
    constexpr int kPayments = 12;
    cabinet::YooKassa gw(cabinet::load_settings_from_environment());
    std::vector<int64_t> txns;
    std::vector<std::string> notes;
    for (int i = 0; i < kPayments; ++i) {
        txns.push_back(pending_purchase("yookassa"));
        notes.push_back(yookassa_set(checkout(gw, txns.back()), R"({"status":"succeeded"})"));
    }
    const int64_t reader = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(reader)}).status == 200);

    // Every verification of the first wave takes a second at the provider: the admitted
    // ones hold their slot that long, so the rest of the wave finds none free.
    FakeFailures cleanup;
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/slow"), kJsonHeaders,
                           R"({"service":"yookassa","count":)" + std::to_string(kPayments) + R"(,"delay_ms":1000})")
                      .status == 200);
    std::vector<HttpResult> first(kPayments);
    std::atomic<int> wave_done{0};
    std::vector<long> reads;
    int reads_during_wave = 0;
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < kPayments; ++i)
        tasks.emplace_back([&, i] {
            first[i] = notify("yookassa", notes[i]);
            ++wave_done;
        });
    tasks.emplace_back([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        for (int i = 0; i < 20; ++i) {
            reads.push_back(http("GET", "/api/cabinet/me", {tma_header(reader)}).status);
            if (wave_done.load() < kPayments) ++reads_during_wave;
        }
    });
    money::run_together(tasks);
    http_url("DELETE", fake_url("/__fake/fail"));

    BOOST_TEST(reads == std::vector<long>(20, 200), boost::test_tools::per_element());
    BOOST_TEST(reads_during_wave == 20);  // answered while admitted notifications still verified
    std::vector<size_t> refused;
    for (size_t i = 0; i < txns.size(); ++i) {
        if (first[i].status == 200) {
            BOOST_TEST(accepted(first[i]));
            BOOST_TEST(paid(txns[i]));
            BOOST_TEST(jobs_for(txns[i]) == 1);
            continue;
        }
        BOOST_TEST_REQUIRE(first[i].status == 503, first[i].status << " " << first[i].body);
        BOOST_TEST(str_of(first[i].json()["detail"]) == "busy, try again");
        BOOST_TEST(first[i].headers["retry-after"] == "1");
        // Refused before the provider was asked: nothing marked, nothing queued.
        BOOST_TEST(status_is(txns[i], "pending"));
        BOOST_TEST(!paid(txns[i]));
        BOOST_TEST(jobs_for(txns[i]) == 0);
        refused.push_back(i);
    }
    BOOST_TEST(refused.size() >= 1u);
    BOOST_TEST(refused.size() < txns.size());

    // The provider posts each refused notification again after its Retry-After; replays of
    // the accepted ones change nothing.
    std::this_thread::sleep_for(std::chrono::seconds(1));
    for (size_t i = 0; i < txns.size(); ++i) {
        const HttpResult r = deliver("yookassa", notes[i]);
        BOOST_TEST(accepted(r), "transaction " << txns[i] << ": " << r.status << " " << r.body);
    }

    for (const int64_t txn : txns) {
        BOOST_TEST_REQUIRE(wait_until([&] { return status_is(txn, "completed"); }, 30000), "transaction " << txn);
        BOOST_TEST(jobs_for(txn) == 1);
        bought_30_days_once(txn);
    }
}

BOOST_AUTO_TEST_SUITE_END()
