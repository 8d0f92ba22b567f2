// Payment notifications nobody outside can use to block payments (issue 49): strangers
// posting forged notifications in a loop while buyers pay, the providers' address allow-lists,
// and the worker's recheck that fulfils a payment whose notifications were all lost.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>

#include "money_support.hpp"
#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"
#include "payment_webhook_support.hpp"

using namespace it;
using namespace it::webhooks;

namespace {

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
    const auto r = http_url("GET", fake_url("/__fake/journal?service=yookassa"));
    const rapidjson::Document items = r.json();
    return items.Size() == 0 ? 0 : items[items.Size() - 1]["seq"].GetInt64();
}

// GET /payments/<id> requests YooKassa received after `since`.
std::vector<std::string> yookassa_lookups_since(int64_t since) {
    const auto r = http_url("GET", fake_url("/__fake/journal?service=yookassa&path=/v3/payments/&since=" + std::to_string(since)));
    const rapidjson::Document entries = r.json();
    std::vector<std::string> out;
    for (const auto& e : entries.GetArray())
        if (std::string(e["method"].GetString()) == "GET") out.emplace_back(e["path"].GetString());
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(payment_webhook_abuse)

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
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/cryptobot/invoices/" + invoice + "/paid"), kJsonHeaders, "{}").status == 200);

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
