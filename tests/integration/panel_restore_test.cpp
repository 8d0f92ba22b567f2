// A grant whose transaction fails after the panel took its write leaves the panel as it
// was (services/panel_restore.hpp): no days on the panel that nobody paid for, nothing for
// the panel sync to copy as if granted, and the purchase made again adds its days once.
// The failure is the one found in review: a referral's purchase locks the referrer after
// its panel call, and a long transaction holding the referrer's row outlasts the statement
// timeout.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "money_support.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

BOOST_AUTO_TEST_SUITE(panel_restore)

BOOST_AUTO_TEST_CASE(a_purchase_that_fails_after_its_panel_call_leaves_the_panel_as_it_was) {
    const Shopper referrer = new_shopper();
    const Shopper buyer = new_shopper("ref_" + referrer.referral_code);
    set_balance(buyer.tg, 2 * kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(buyer), 200L);  // a subscription, and a panel user, to renew
    const Books before = books(buyer);
    BOOST_REQUIRE_EQUAL(before.panel_expire_at, before.expire_at);
    {
        const PoolWith pool("DB_STATEMENT_TIMEOUT_MS=1000");
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::work hold(conn);
        hold.exec_params("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", referrer.id);
        const long status = renew(buyer);  // the panel takes +30 days, then the commission waits
        hold.abort();
        BOOST_TEST(status >= 500L);
    }
    const Books failed = books(buyer);
    BOOST_TEST(failed.expire_at == before.expire_at);
    BOOST_TEST(failed.balance == before.balance);
    BOOST_TEST(failed.panel_expire_at == before.expire_at);  // put back, not 30 days ahead

    BOOST_REQUIRE_EQUAL(run_panel_sync(buyer), 0);
    BOOST_TEST(books(buyer).expire_at == before.expire_at);  // nothing to copy

    BOOST_REQUIRE_EQUAL(renew(buyer), 200L);
    const Books after = books(buyer);
    BOOST_TEST(after.expire_at == before.expire_at + 30 * kDay);  // once, not 60
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    BOOST_TEST(after.balance == before.balance - kStandardPrice);
    BOOST_TEST(count("SELECT count(*) FROM referral_earnings WHERE referrer_id = " + std::to_string(referrer.id)) == 2);
    const auto [rc, out] = check_ledger();
    BOOST_TEST(rc == 0, out);
}

// The panel took the write, but its answer came after the pool had given up: the purchase
// failed and rolled back, and nothing in the pool knew the panel had changed. Such a write
// (as one before a crash or a lost COMMIT) carries a write mark PostgreSQL never stored
// (panel/panel_mark.hpp): the sync puts it back instead of copying the days in.
BOOST_AUTO_TEST_CASE(a_panel_write_whose_answer_was_lost_is_put_back_by_the_sync) {
    const Shopper buyer = new_shopper();
    set_balance(buyer.tg, 2 * kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(buyer), 200L);
    const Books before = books(buyer);
    BOOST_REQUIRE_EQUAL(before.panel_expire_at, before.expire_at);
    {
        const PoolWith pool("PANEL_TIMEOUT_MS=300");
        slow_panel(1500, 2);  // the renewal's panel write lands 1.5 s late, after the pool gave up
        const long status = renew(buyer);
        BOOST_TEST(status >= 500L);
        panel_normal();
    }
    // The mock applied the late write: the panel is 30 days ahead of what was paid for.
    BOOST_REQUIRE(wait_until([&] { return books(buyer).panel_expire_at == before.expire_at + 30 * kDay; }, 10000));
    const Books failed = books(buyer);
    BOOST_TEST(failed.expire_at == before.expire_at);
    BOOST_TEST(failed.balance == before.balance);

    BOOST_REQUIRE_EQUAL(run_panel_sync(buyer), 0);
    const Books synced = books(buyer);
    BOOST_TEST(synced.expire_at == before.expire_at);        // not copied in
    BOOST_TEST(synced.panel_expire_at == before.expire_at);  // put back
    BOOST_TEST(synced.history_id == before.history_id);

    BOOST_REQUIRE_EQUAL(renew(buyer), 200L);
    const Books after = books(buyer);
    BOOST_TEST(after.expire_at == before.expire_at + 30 * kDay);  // once, not 60
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    BOOST_TEST(after.balance == before.balance - kStandardPrice);

    // The put-back claimed nothing, and the renewal's own mark was stored with it: an
    // operator's later edit on the panel is mirrored as before, not put back.
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    const auto sub = txn.exec_params1(
        "SELECT panel_uuid::text, traffic_limit_bytes, device_limit FROM subscriptions WHERE user_id = $1", buyer.id);
    BOOST_REQUIRE(panel().update_user(sub[0].c_str(), {after.expire_at + 3 * kDay, sub[1].as<int64_t>(),
                                                       sub[2].as<int64_t>(), true}));
    BOOST_REQUIRE_EQUAL(run_panel_sync(buyer), 0);
    BOOST_TEST(books(buyer).expire_at == after.expire_at + 3 * kDay);
    const auto [rc, out] = check_ledger();
    BOOST_TEST(rc == 0, out);
}

// The invoice expirer takes one buyer's lock at a time. Holding them all in one
// transaction, it could hold a referrer (whose invoice ended first) and wait for a buyer
// whose purchase held that buyer through its panel call and then wanted the referrer, for
// the commission: a deadlock, and one of the two failed, the purchase after its panel call.
BOOST_AUTO_TEST_CASE(the_invoice_expirer_and_a_referrals_purchase_both_go_through) {
    const Shopper referrer = new_shopper();
    const Shopper buyer = new_shopper("ref_" + referrer.referral_code);
    set_balance(buyer.tg, 2 * kStandardPrice);
    BOOST_REQUIRE_EQUAL(renew(buyer), 200L);
    const Books before = books(buyer);
    const int64_t referrer_invoice = open_stars_invoice(referrer);
    const int64_t buyer_invoice = open_stars_invoice(buyer);
    // Both unpaid and due, the referrer's first: the expirer takes the referrer's lock first.
    exec("UPDATE transactions SET expires_at = now() - interval '2 seconds' WHERE id = " +
         std::to_string(referrer_invoice));
    exec("UPDATE transactions SET expires_at = now() - interval '1 second' WHERE id = " + std::to_string(buyer_invoice));

    slow_panel(1500, 1);  // the renewal holds the buyer's lock through a 1.5 s panel call
    long status = 0;
    std::thread purchase([&] { status = renew(buyer); });
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    const auto [rc, out] = run(ctl("expire-payments"));
    purchase.join();
    panel_normal();

    BOOST_TEST(rc == 0, out);
    BOOST_TEST(status == 200L);
    const Books after = books(buyer);
    BOOST_TEST(after.expire_at == before.expire_at + 30 * kDay);
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    BOOST_TEST(after.balance == before.balance - kStandardPrice);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE status = 'canceled' AND id IN (" +
                     std::to_string(referrer_invoice) + ", " + std::to_string(buyer_invoice) + ")") == 2);
    BOOST_TEST(count("SELECT count(*) FROM referral_earnings WHERE referrer_id = " + std::to_string(referrer.id)) == 2);
}

BOOST_AUTO_TEST_SUITE_END()
