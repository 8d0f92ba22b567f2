// A grant whose transaction fails after the panel took its write leaves the panel as it
// was (services/panel_restore.hpp): no days on the panel that nobody paid for, nothing for
// the panel sync to copy as if granted, and the purchase made again adds its days once.
// The failure is the one found in review: a referral's purchase locks the referrer after
// its panel call, and a long transaction holding the referrer's row outlasts the statement
// timeout.
#include <boost/test/unit_test.hpp>

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

BOOST_AUTO_TEST_SUITE_END()
