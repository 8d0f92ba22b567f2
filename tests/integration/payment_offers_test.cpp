// Pending invoices and the discounts frozen into them (issue 13, docs/decisions.md "Pending
// payments expire; one offer, one invoice"): a one-purchase promo discount pays for one
// purchase however many invoices were opened with it, unpaid invoices end after
// PAYMENT_PENDING_TTL_S, and money that arrives for an invoice that can no longer be
// honoured is never lost: it buys the order once, or lands on the balance.
#include <boost/test/unit_test.hpp>

#include "catalog_support.hpp"
#include "support.hpp"

using namespace it;

namespace {

std::string where_tg(int64_t tg) { return " WHERE telegram_id = " + std::to_string(tg); }

int64_t open_stars_invoice(const std::string& auth) {
    const auto r = http("POST", "/api/cabinet/purchase", {auth, kJsonContentType}, R"({"plan_id":"standard","days":30,"method":"stars"})");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    return r.json()["transaction_id"].GetInt64();
}

int64_t invoice_stars(int64_t tx) {
    return count("SELECT (pricing->>'stars')::bigint FROM transactions WHERE id = " + std::to_string(tx));
}

// Telegram's "may I take the stars?" for our invoice: what the bot answered.
bool pre_checkout_ok(int64_t tg, int64_t tx) {
    const int64_t mark = journal_mark();
    const auto r = bot_update(R"({"update_id":1,"pre_checkout_query":{"id":"q)" + std::to_string(tx) +
                              R"(","from":{"id":)" + std::to_string(tg) + R"(},"currency":"XTR","total_amount":)" +
                              std::to_string(invoice_stars(tx)) + R"(,"invoice_payload":")" + std::to_string(tx) + "\"}}");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    const auto calls = bot_api_calls("answerPreCheckoutQuery", mark);
    BOOST_REQUIRE_EQUAL(calls.Size(), 1u);
    return calls[0]["json"]["ok"].GetBool();
}

void pay_stars(int64_t tg, int64_t tx, int64_t stars, const std::string& charge) {
    const auto r = bot_update(R"({"update_id":2,"message":{"message_id":5,"chat":{"id":)" + std::to_string(tg) +
                              R"(},"successful_payment":{"currency":"XTR","total_amount":)" + std::to_string(stars) +
                              R"(,"invoice_payload":")" + std::to_string(tx) + R"(","telegram_payment_charge_id":")" +
                              charge + "\"}}}");
    BOOST_REQUIRE_EQUAL(r.status, 200);
}

bool settled(int64_t tx) {
    const std::string id = std::to_string(tx);
    const bool done = wait_until(
        [&] { return count("SELECT count(*) FROM transactions WHERE status = 'completed' AND id = " + id) == 1; }, 20000);
    if (!done)  // why the worker could not, for the failure message
        BOOST_ERROR(run(ctl("jobs list --limit 200") + " | grep -F '\"transaction_id\":" + id + "'").second);
    return done;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(payment_offers)

BOOST_AUTO_TEST_CASE(a_promo_discount_pays_for_one_purchase_however_many_invoices_carry_it) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    http("GET", "/api/cabinet/me", {auth});
    exec("UPDATE users SET promo_discount_pct = 50, promo_discount_until = now() + interval '1 day'" + where_tg(tg));

    const int64_t first = open_stars_invoice(auth);
    const int64_t second = open_stars_invoice(auth);  // the newest invoice takes the offer over
    BOOST_TEST(count("SELECT (pricing->>'promo_pct')::int FROM transactions WHERE id = " + std::to_string(second)) == 50);
    BOOST_TEST(!pre_checkout_ok(tg, first));
    BOOST_TEST(pre_checkout_ok(tg, second));

    pay_stars(tg, second, invoice_stars(second), "ch_second_" + std::to_string(second));
    BOOST_REQUIRE(settled(second));
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(count("SELECT promo_discount_pct FROM users" + where_tg(tg)) == 0);  // used up

    // The next invoice is at the full price again.
    const int64_t third = open_stars_invoice(auth);
    BOOST_TEST(count("SELECT (pricing->>'promo_pct')::int FROM transactions WHERE id = " + std::to_string(third)) == 0);
    const auto amount_of = [](int64_t tx) { return count("SELECT amount_minor FROM transactions WHERE id = " + std::to_string(tx)); };
    BOOST_TEST(amount_of(third) == 2 * amount_of(second));  // 299.00 against 149.50
    BOOST_TEST(invoice_stars(third) == stars_for(amount_of(third)));
    BOOST_TEST(invoice_stars(second) == stars_for(amount_of(second)));

    // Telegram took the stars for the first invoice anyway (its pre-checkout raced the
    // second): the money is not lost and the discount is not used twice: the amount goes
    // to the balance, no days are added.
    const int64_t first_amount = count("SELECT amount_minor FROM transactions WHERE id = " + std::to_string(first));
    pay_stars(tg, first, invoice_stars(first), "ch_first_" + std::to_string(first));
    BOOST_REQUIRE(settled(first));
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(count("SELECT balance_minor FROM users" + where_tg(tg)) == first_amount);
    BOOST_TEST(count("SELECT count(*) FROM balance_ledger WHERE reason = 'deposit' AND transaction_id = " +
                     std::to_string(first) + " AND delta_minor = " + std::to_string(first_amount)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history h JOIN users u ON u.id = h.user_id" + where_tg(tg)) == 1);
}

BOOST_AUTO_TEST_CASE(unpaid_invoices_expire_and_give_the_discount_back) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    http("GET", "/api/cabinet/me", {auth});
    exec("UPDATE users SET promo_discount_pct = 30, promo_discount_until = now() + interval '1 day'" + where_tg(tg));
    const int64_t tx = open_stars_invoice(auth);
    const std::string id = std::to_string(tx);
    BOOST_TEST(count("SELECT extract(epoch FROM expires_at - created_at)::bigint FROM transactions WHERE id = " + id) == 3600);
    BOOST_TEST(count("SELECT promo_reserved_by FROM users" + where_tg(tg)) == tx);

    exec("UPDATE transactions SET expires_at = now() - interval '1 second' WHERE id = " + id);
    BOOST_TEST(!pre_checkout_ok(tg, tx));  // refused at once, before the worker's sweep
    const auto [rc, out] = run(ctl("expire-payments"));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'canceled' AND failure_reason LIKE 'expired%' AND id = " + id) == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE promo_reserved_by IS NULL AND promo_discount_pct = 30" +
                     std::string(" AND telegram_id = ") + std::to_string(tg)) == 1);
    const auto pay = http("GET", "/api/cabinet/payments", {auth}).json();
    BOOST_TEST(std::string(pay["items"][0]["status"].GetString()) == "canceled");

    // The discount is there for the next invoice.
    const int64_t next = open_stars_invoice(auth);
    BOOST_TEST(count("SELECT (pricing->>'promo_pct')::int FROM transactions WHERE id = " + std::to_string(next)) == 30);
    BOOST_TEST(pre_checkout_ok(tg, next));

    // Stars for the expired invoice still arrive (Telegram answered before the expiry): the
    // offer is free again but held by the newer invoice, so the money goes to the balance.
    pay_stars(tg, tx, invoice_stars(tx), "ch_late_" + id);
    BOOST_REQUIRE(settled(tx));
    BOOST_TEST(days_left(tg) == 0);
    BOOST_TEST(count("SELECT balance_minor FROM users" + where_tg(tg)) ==
               count("SELECT amount_minor FROM transactions WHERE id = " + id));
}

// One discount at a time: a second discount code entered while an open invoice holds the
// first is refused (and not used up), or that invoice's payment would have used the second
// one up. Once the invoice has ended, the code works.
BOOST_AUTO_TEST_CASE(a_second_discount_code_waits_for_the_invoice_that_holds_the_first) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    http("GET", "/api/cabinet/me", {auth});
    exec("UPDATE users SET promo_discount_pct = 20, promo_discount_until = now() + interval '1 day'" + where_tg(tg));
    const int64_t tx = open_stars_invoice(auth);
    const std::string code = "SECOND" + std::to_string(tg);
    exec("INSERT INTO promo_codes (code, reward_type, value, max_uses) VALUES ('" + code + "', 'discount', 30, 1)");
    const auto enter = [&] {
        const auto r = http("POST", "/api/cabinet/promocode", {auth, kJsonContentType}, R"({"code":")" + code + R"("})");
        BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
        return r.json()["ok"].GetBool();
    };
    BOOST_TEST(!enter());
    BOOST_TEST(count("SELECT promo_discount_pct FROM users" + where_tg(tg)) == 20);
    BOOST_TEST(count("SELECT uses FROM promo_codes WHERE code = '" + code + "'") == 0);

    exec("UPDATE transactions SET expires_at = now() - interval '1 second' WHERE id = " + std::to_string(tx));
    BOOST_REQUIRE(run(ctl("expire-payments")).first == 0);
    BOOST_TEST(enter());
    BOOST_TEST(count("SELECT promo_discount_pct FROM users" + where_tg(tg)) == 30);
    const int64_t next = open_stars_invoice(auth);
    BOOST_TEST(count("SELECT (pricing->>'promo_pct')::int FROM transactions WHERE id = " + std::to_string(next)) == 30);
}

BOOST_AUTO_TEST_CASE(a_full_payment_after_an_underpaid_one_is_credited_once) {
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    const int64_t tx = open_stars_invoice(auth);
    const std::string id = std::to_string(tx);
    pay_stars(tg, tx, 1, "ch_short_" + id);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'failed' AND id = " + id) == 1);

    const std::string full = "ch_full_" + id;
    for (int i = 0; i < 3; ++i) pay_stars(tg, tx, invoice_stars(tx), full);  // with Telegram's repeats
    BOOST_REQUIRE(settled(tx));
    BOOST_TEST(days_left(tg) == 30);
    BOOST_TEST(count("SELECT count(*) FROM subscription_history h JOIN users u ON u.id = h.user_id" + where_tg(tg)) == 1);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'fulfil_payment' AND payload->>'transaction_id' = '" + id + "'") == 1);
    BOOST_TEST(count("SELECT balance_minor FROM users" + where_tg(tg)) == 0);
}

// The sale half of payment_offer_holds(): an invoice paid in time keeps its sale price; one
// paid after it ended keeps it only while a sale at least as large still runs.
BOOST_AUTO_TEST_CASE(a_sale_price_holds_for_invoices_paid_in_time) {
    const int64_t tg = fresh_telegram_id();
    http("GET", "/api/cabinet/me", {tma_header(tg)});
    const std::string user = "(SELECT id FROM users" + where_tg(tg) + ")";
    auto invoice = [&](const std::string& paid_at) {
        return std::to_string(count(
            "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, pricing, created_at, expires_at, paid_at)"
            " VALUES (" + user + ", 'subscription_payment', 'pending', 100, 'RUB', 'yookassa', '{\"sale_pct\": 20}',"
            " now() - interval '2 hours', now() - interval '1 hour', " + paid_at + ") RETURNING id"));
    };
    BOOST_TEST(count("SELECT payment_offer_holds(" + invoice("now() - interval '90 minutes'") + ")::int") == 1);
    BOOST_TEST(count("SELECT payment_offer_holds(" + invoice("now()") + ")::int") == 0);
    exec("DELETE FROM transactions WHERE user_id = " + user);
}

BOOST_AUTO_TEST_SUITE_END()
