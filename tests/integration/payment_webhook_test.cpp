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
#include "payments/yookassa.hpp"
#include "money_support.hpp"
#include "support.hpp"

using namespace it;

namespace {

std::string fakes(const std::string& path) { return "http://127.0.0.1:" + env("FAKES_PORT") + path; }

std::string to_json(const rapidjson::Value& v) {
    rapidjson::StringBuffer buf;
    cabinet::JsonWriter w(buf);
    v.Accept(w);
    return buf.GetString();
}

// A pending online purchase of Standard/30 days for 299.00 RUB, as POST /purchase leaves it.
int64_t pending_purchase(const std::string& provider) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    const std::string plan = std::to_string(count("SELECT id FROM plans WHERE public_code = 'standard'"));
    return count(
        "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider, plan_snapshot,"
        " pricing, description) SELECT id, 'subscription_payment', 'pending', 29900, 'RUB', '" + provider + "', '" +
        provider + R"(', '{"name":"Standard","mode":"plans","plan_id":)" + plan +
        R"(,"public_code":"standard","days":30,"traffic_limit_bytes":0,"device_limit":3}', '{"final_minor":29900,"stars":167}',)"
        " 'Standard, 30 days' FROM users WHERE telegram_id = " + std::to_string(tg) + " RETURNING id");
}

cabinet::CheckoutRequest checkout_for(int64_t txn) {
    cabinet::CheckoutRequest r;
    r.transaction_id = txn;
    r.amount_minor = 29900;
    r.currency = "RUB";
    r.description = "Standard, 30 days";
    return r;
}

// The gateway's own create() against the fake, then bound to the transaction as purchase does.
std::string checkout(cabinet::Gateway& gw, int64_t txn) {
    const auto c = gw.create(checkout_for(txn));
    BOOST_TEST(!c.redirect_url.empty());
    exec("UPDATE transactions SET provider_payment_id = '" + c.provider_payment_id + "' WHERE id = " + std::to_string(txn));
    return c.provider_payment_id;
}

// Sets the fake payment's state; returns the notification YooKassa would send for it.
std::string yookassa_set(const std::string& id, const std::string& change) {
    const auto r = http_url("POST", fakes("/__fake/yookassa/payments/" + id), kJsonHeaders, change);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return to_json(r.json()["notification"]);
}

HttpResult notify(const std::string& gateway, const std::string& body, std::vector<std::string> headers = kJsonHeaders) {
    return http("POST", "/api/v1/payments/" + gateway, headers, body);
}

// As a provider delivers: posted again after the Retry-After of a 503 busy (more than
// GATEWAY_CONCURRENCY notifications at once in a pool process), until otherwise answered.
HttpResult deliver(const std::string& gateway, const std::string& body) {
    HttpResult r;
    for (int attempt = 0; attempt < 30; ++attempt) {
        r = notify(gateway, body);
        if (r.status != 503 || r.headers["retry-after"] != "1") break;
        std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    return r;
}

// A string field for comparisons (rapidjson values cannot be printed by BOOST_TEST).
std::string str_of(const rapidjson::Value& v) { return v.IsString() ? v.GetString() : "<not a string>"; }

bool accepted(const HttpResult& r) { return r.status == 200 && r.json()["accepted"].GetBool(); }

std::string where(int64_t txn) { return " FROM transactions WHERE id = " + std::to_string(txn); }
bool paid(int64_t txn) { return count("SELECT count(*)" + where(txn) + " AND paid_at IS NOT NULL") == 1; }
bool status_is(int64_t txn, const std::string& s) { return count("SELECT count(*)" + where(txn) + " AND status = '" + s + "'") == 1; }
int64_t jobs_for(int64_t txn) {
    return count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND dedupe_key = 'fulfil:" + std::to_string(txn) + "'");
}

// The buyer of `txn` has one paid payment and one grant of its 30 days (on the panel too),
// and no money moved twice.
void bought_30_days_once(int64_t txn) {
    const int64_t user = count("SELECT user_id" + where(txn));
    const money::Shopper buyer{count("SELECT telegram_id FROM users WHERE id = " + std::to_string(user)), user, "", ""};
    const money::Books b = money::books(buyer);
    BOOST_TEST(b.paid_transactions == 1);
    BOOST_TEST(b.balance == 0);
    BOOST_TEST(b.ledger_sum == 0);
    const int64_t now = count("SELECT extract(epoch FROM now())::bigint");
    BOOST_TEST(b.expire_at > now + 29 * money::kDay);
    BOOST_TEST(b.expire_at <= now + 30 * money::kDay);
    BOOST_TEST(b.panel_expire_at == b.expire_at);
}

// Injected outages end with the test, also when it fails half-way.
struct FakeFailures {
    ~FakeFailures() { http_url("DELETE", fakes("/__fake/fail")); }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(payment_webhook)

BOOST_AUTO_TEST_CASE(yookassa_create_sends_the_documented_request) {
    const auto s = cabinet::load_settings_from_environment();
    cabinet::YooKassa gw(s);
    const int64_t txn = pending_purchase("yookassa");
    const std::string id = checkout(gw, txn);
    const auto journal = http_url("GET", fakes("/__fake/journal?service=yookassa&path=/v3/payments")).json();
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
    BOOST_REQUIRE(http_url("POST", fakes("/__fake/fail"), kJsonHeaders, R"({"service":"yookassa","count":1})").status == 200);
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
    const auto sent = http_url("GET", fakes("/__fake/journal?service=cryptobot&path=/api/createInvoice")).json();
    const auto& last = sent[sent.Size() - 1];
    BOOST_TEST(str_of(last["headers"]["crypto-pay-api-token"]) == s.cryptobot_token);
    BOOST_TEST(str_of(last["json"]["amount"]) == "299.00");
    BOOST_TEST(str_of(last["json"]["fiat"]) == "RUB");
    BOOST_TEST(str_of(last["json"]["payload"]) == std::to_string(txn));

    const auto hook = http_url("POST", fakes("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, "{}").json();
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
    const auto hook = http_url("POST", fakes("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders,
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
    const auto hook = http_url("POST", fakes("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, R"({"amount":"100.00"})").json();
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
    BOOST_REQUIRE(http_url("POST", fakes("/__fake/slow"), kJsonHeaders,
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
    http_url("DELETE", fakes("/__fake/fail"));

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

// The first column of the first row, as text.
std::string text_of(const std::string& sql) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction q(conn);
    return q.exec(sql)[0][0].c_str();
}

// A buyer's real yookassa purchase through the API; its provider payment id.
struct RealPayment {
    int64_t tg = 0;
    int64_t txn = 0;
    std::string payment_id;
};
RealPayment real_yookassa_purchase() {
    RealPayment p;
    p.tg = fresh_telegram_id();
    const auto r = buy_standard(tma_header(p.tg), "yookassa");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    p.txn = r.json()["transaction_id"].GetInt64();
    p.payment_id = text_of("SELECT provider_payment_id" + where(p.txn));
    return p;
}


int64_t journal_seq() {
    const auto r = http_url("GET", fakes("/__fake/journal?service=yookassa"));
    const rapidjson::Document items = r.json();
    return items.Size() == 0 ? 0 : items[items.Size() - 1]["seq"].GetInt64();
}

// GET /payments/<id> requests YooKassa received after `since`.
std::vector<std::string> yookassa_lookups_since(int64_t since) {
    const auto r = http_url("GET", fakes("/__fake/journal?service=yookassa&path=/v3/payments/&since=" + std::to_string(since)));
    const rapidjson::Document entries = r.json();
    std::vector<std::string> out;
    for (const auto& e : entries.GetArray())
        if (std::string(e["method"].GetString()) == "GET") out.emplace_back(e["path"].GetString());
    return out;
}

// Four strangers post forged notifications in a loop (made-up YooKassa ids, CryptoBot
// updates with a wrong signature) from their own address while buyers pay for real from
// another: every real checkout and notification succeeds, each order is granted once, the
// forgeries change nothing and never reach YooKassa (a made-up id is refused before the
// provider is asked), and beyond their share nginx answers the strangers 503.
BOOST_AUTO_TEST_CASE(forged_notifications_in_a_loop_do_not_block_real_payments) {
    const int64_t since = journal_seq();
    const int64_t payments_before = count("SELECT count(*) FROM transactions");
    std::atomic<int> forged{0}, throttled{0};
    std::vector<std::string> odd;  // statuses a forgery must never get
    std::mutex odd_mutex;
    // Stopped and joined however the test leaves (a failed REQUIRE included).
    struct Strangers {
        std::atomic<bool> stop{false};
        std::vector<std::thread> threads;
        void end() {
            stop = true;
            for (auto& t : threads)
                if (t.joinable()) t.join();
        }
        ~Strangers() { end(); }
    } strangers;
    std::atomic<bool>& stop = strangers.stop;
    for (int c = 0; c < 4; ++c)
        strangers.threads.emplace_back([&, c] {
            for (int i = 0; !stop; ++i) {
                HttpResult r;
                if (i % 2 == 0) {
                    char id[40];
                    std::snprintf(id, sizeof id, "2f%06d-%04d-5000-9000-%012d", c, i % 10000, i);
                    r = http_from("127.0.0.2", "POST", "/api/v1/payments/yookassa", kJsonHeaders,
                                  std::string(R"({"type":"notification","event":"payment.succeeded","object":{"id":")") +
                                      id + R"(","status":"succeeded","paid":true}})");
                } else {
                    const std::string body = R"({"update_id":1,"update_type":"invoice_paid","payload":{"invoice_id":)" +
                                             std::to_string(900000 + i) + R"(,"status":"paid","amount":"299.00","currency_type":"fiat","fiat":"RUB","payload":"1"}})";
                    std::vector<std::string> h = kJsonHeaders;
                    h.push_back("crypto-pay-api-signature: " + cabinet::cryptobot_signature("not-our-token", body));
                    r = http_from("127.0.0.2", "POST", "/api/v1/payments/cryptobot", h, body);
                }
                ++forged;
                if (r.status == 503) ++throttled;
                else if (r.status != 404 && r.status != 403) {
                    const std::lock_guard lock(odd_mutex);
                    odd.push_back(std::to_string(r.status) + " " + r.body);
                }
            }
        });

    std::vector<RealPayment> real;
    for (int i = 0; i < 6; ++i) {
        real.push_back(real_yookassa_purchase());
        const std::string note = yookassa_set(real.back().payment_id, R"({"status":"succeeded"})");
        const HttpResult r = deliver("yookassa", note);
        BOOST_TEST(accepted(r), "transaction " << real.back().txn << ": " << r.status << " " << r.body);
    }
    // The strangers keep going while the paid orders are fulfilled.
    for (const auto& p : real)
        BOOST_TEST_REQUIRE(wait_until([&] { return status_is(p.txn, "completed"); }, 30000), "transaction " << p.txn);
    strangers.end();

    BOOST_TEST(odd.empty(), odd.size() << " forgeries answered otherwise, first: " << (odd.empty() ? "" : odd[0]));
    BOOST_TEST(forged.load() > 200);     // they were at it the whole time
    BOOST_TEST(throttled.load() > 0);    // and nginx cut their share
    for (const auto& p : real) bought_30_days_once(p.txn);
    // Only the real payments were asked about, and the forgeries left no row behind.
    std::vector<std::string> expected;
    for (const auto& p : real) expected.push_back("/v3/payments/" + p.payment_id);
    BOOST_TEST(yookassa_lookups_since(since) == expected, boost::test_tools::per_element());
    BOOST_TEST(count("SELECT count(*) FROM transactions") == payments_before + static_cast<int64_t>(real.size()));
}

// With YOOKASSA_WEBHOOK_FROM / CRYPTOBOT_WEBHOOK_FROM set, only those networks may post:
// the rest are refused 403 before anything is read or asked, and a sender inside is served.
BOOST_AUTO_TEST_CASE(notifications_from_outside_the_allow_list_are_refused) {
    const RealPayment p = real_yookassa_purchase();
    const std::string note = yookassa_set(p.payment_id, R"({"status":"succeeded"})");
    {
        PoolWith pool("YOOKASSA_WEBHOOK_FROM=127.0.0.1/32,2a02:5180::/32 CRYPTOBOT_WEBHOOK_FROM=10.0.0.0/8");
        const int64_t since = journal_seq();
        const auto outside = http_from("127.0.0.2", "POST", "/api/v1/payments/yookassa", kJsonHeaders, note);
        BOOST_TEST(outside.status == 403);
        BOOST_TEST(str_of(outside.json()["detail"]) == "notifications are accepted from the payment provider's addresses only");
        BOOST_TEST(yookassa_lookups_since(since).empty());
        BOOST_TEST(!paid(p.txn));
        const auto crypto = notify("cryptobot", "{}");
        BOOST_TEST(crypto.status == 403);
        BOOST_TEST(accepted(notify("yookassa", note)));  // from 127.0.0.1: inside
    }
    BOOST_TEST_REQUIRE(wait_until([&] { return status_is(p.txn, "completed"); }, 30000));
    bought_30_days_once(p.txn);
}

// Every notification of a payment lost: the worker asks the gateway itself (PAYMENT_
// RECHECK_AFTER_S; `cabinetctl jobs recheck-payments` runs its pass at once) and the order
// is fulfilled once, for YooKassa and CryptoBot, also when it was paid in the invoice's last
// minutes and had expired here meanwhile; one still unpaid is left as it is, and a
// notification after the recheck is a replay.
BOOST_AUTO_TEST_CASE(a_payment_whose_notifications_were_lost_is_fulfilled_by_the_recheck) {
    const RealPayment lost = real_yookassa_purchase();
    yookassa_set(lost.payment_id, R"({"status":"succeeded"})");  // paid; nobody tells us
    const RealPayment late = real_yookassa_purchase();
    yookassa_set(late.payment_id, R"({"status":"succeeded"})");
    // Expired here (our expiry ran) before anyone asked.
    exec("UPDATE transactions SET expires_at = now() - interval '1 minute' WHERE id = " + std::to_string(late.txn));
    BOOST_REQUIRE(run(ctl("expire-payments")).first == 0);
    BOOST_REQUIRE(status_is(late.txn, "canceled"));
    const RealPayment unpaid = real_yookassa_purchase();

    const int64_t crypto_tg = fresh_telegram_id();
    const auto cr = buy_standard(tma_header(crypto_tg), "cryptobot");
    BOOST_REQUIRE_MESSAGE(cr.status == 200, cr.body);
    const int64_t crypto_txn = cr.json()["transaction_id"].GetInt64();
    const std::string invoice = text_of("SELECT provider_payment_id" + where(crypto_txn));
    BOOST_REQUIRE(http_url("POST", fakes("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, "{}").status == 200);

    // Not yet due: begun a moment ago, under PAYMENT_RECHECK_AFTER_S (the expired one is).
    const auto asked = [](int64_t txn) { return count("SELECT count(*)" + where(txn) + " AND provider_checked_at IS NOT NULL") == 1; };
    const auto rechecks = [](int64_t txn) {
        return count("SELECT count(*) FROM jobs WHERE kind = 'recheck_payment' AND payload->>'transaction_id' = '" +
                     std::to_string(txn) + "'");
    };
    BOOST_REQUIRE(run(ctl("jobs recheck-payments")).first == 0);
    BOOST_TEST(!asked(lost.txn));
    BOOST_TEST(!asked(unpaid.txn));
    BOOST_TEST(!asked(crypto_txn));
    const auto [rc, out] = run(ctl("jobs recheck-payments --after-s 0"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    for (const int64_t txn : {lost.txn, late.txn, crypto_txn})
        BOOST_TEST_REQUIRE(wait_until([&] { return status_is(txn, "completed"); }, 30000), "transaction " << txn);
    bought_30_days_once(lost.txn);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'completed' AND user_id = (SELECT user_id" +
                     where(crypto_txn) + ")") == 1);
    // Paid after its invoice had ended: the days all the same (its price stood), once.
    bought_30_days_once(late.txn);
    // Still unpaid at the gateway: asked, left pending; asked again only after the interval.
    BOOST_TEST_REQUIRE(wait_until([&] { return count("SELECT count(*) FROM jobs WHERE kind = 'recheck_payment' AND status = 'done'"
                                                     " AND payload->>'transaction_id' = '" + std::to_string(unpaid.txn) + "'") == 1; }, 30000));
    BOOST_TEST(status_is(unpaid.txn, "pending"));
    BOOST_REQUIRE(run(ctl("jobs recheck-payments --after-s 60")).first == 0);
    BOOST_TEST(rechecks(unpaid.txn) == 1);
    BOOST_TEST(rechecks(late.txn) == 1);  // an expired one is asked once
    // The notification arrives after all: a replay, nothing more.
    BOOST_TEST(accepted(notify("yookassa", yookassa_set(lost.payment_id, "{}"))));
    BOOST_TEST(jobs_for(lost.txn) == 1);
    bought_30_days_once(lost.txn);
}

BOOST_AUTO_TEST_SUITE_END()
