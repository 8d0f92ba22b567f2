// Money and subscription state stay exact under concurrency (issue 12). Every test runs
// its operations in parallel through nginx and then checks the *sums*: days added, money
// moved, ledger rows, the panel's expiry and the subscription history, not only how many
// requests answered 200. Before the fix (lock and read in one statement), parallel
// renewals each charged the price but the expiry moved by one or two of them.
#include <boost/test/unit_test.hpp>

#include <atomic>

#include "money_support.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

// N parallel renewals by one user: N × 30 days, N × the price, N ledger rows, N payments,
// the panel's expiry equal to ours and a history without a break.
void parallel_renewals(int n) {
    const int64_t start = cabinet::unix_now() + 10 * kDay;
    const Shopper s = subscribed_shopper(n * kStandardPrice, start);
    const Books before = books(s);
    std::vector<long> status(n);
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < n; ++i) tasks.push_back([&, i] { status[i] = renew(s); });
    run_together(tasks);

    const Books after = books(s);
    BOOST_TEST(std::count(status.begin(), status.end(), 200L) == n);
    BOOST_TEST(after.expire_at - before.expire_at == n * 30 * kDay);
    BOOST_TEST(before.balance - after.balance == n * kStandardPrice);
    BOOST_TEST(after.balance == 0);
    BOOST_TEST(after.ledger_rows - before.ledger_rows == n);
    BOOST_TEST(after.ledger_sum == after.balance);
    BOOST_TEST(after.paid_transactions - before.paid_transactions == n);
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    BOOST_TEST(history_break(s, before.history_id, start) == "");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(money_races)

BOOST_AUTO_TEST_CASE(four_parallel_renewals_add_four_months) { parallel_renewals(4); }
BOOST_AUTO_TEST_CASE(twelve_parallel_renewals_add_twelve_months) { parallel_renewals(12); }
BOOST_AUTO_TEST_CASE(fifty_parallel_renewals_add_fifty_months) { parallel_renewals(50); }

BOOST_AUTO_TEST_CASE(renewals_with_money_for_some_charge_only_those) {
    const int64_t start = cabinet::unix_now() + 3 * kDay;
    const Shopper s = subscribed_shopper(3 * kStandardPrice + 100, start);
    std::vector<long> status(20);
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < 20; ++i) tasks.push_back([&, i] { status[i] = renew(s); });
    run_together(tasks);
    const Books after = books(s);
    BOOST_TEST(std::count(status.begin(), status.end(), 200L) == 3);
    BOOST_TEST(std::count(status.begin(), status.end(), 402L) == 17);
    BOOST_TEST(after.expire_at - start == 3 * 30 * kDay);
    BOOST_TEST(after.balance == 100);
    BOOST_TEST(after.ledger_sum == 100);
    BOOST_TEST(after.panel_expire_at == after.expire_at);
}

// The link rotation is decided from PostgreSQL under the lock: one rotation, one panel call.
BOOST_AUTO_TEST_CASE(parallel_link_resets_rotate_once) {
    const Shopper s = subscribed_shopper(0, cabinet::unix_now() + 20 * kDay);
    const std::string uuid = [&] {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::nontransaction txn(conn);
        return std::string(txn.exec_params1("SELECT panel_uuid::text FROM subscriptions WHERE user_id = $1", s.id)[0].c_str());
    }();
    const auto revokes = [&] {
        const auto journal = http_url("GET", "http://127.0.0.1:" + env("PANEL_PORT") + "/__mock/journal").json();
        int64_t n = 0;
        for (const auto& e : journal["response"].GetArray())
            if (std::string(e["path"].GetString()) == "/api/users/" + uuid + "/actions/revoke") ++n;
        return n;
    };
    constexpr int kParallel = 10;
    std::vector<long> status(kParallel);
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < kParallel; ++i) tasks.push_back([&, i] { status[i] = reset_link(s); });
    run_together(tasks);
    BOOST_TEST(std::count(status.begin(), status.end(), 200L) == 1);
    BOOST_TEST(std::count(status.begin(), status.end(), 429L) == kParallel - 1);
    BOOST_TEST(revokes() == 1);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// Renewals, promo days, a referral bonus landing, the worker fulfilling a paid Stars
// invoice, an autopay renewal and a panel sync, all on one account at once. The final
// expiry is the start plus every grant that happened, the balance the start minus the
// charges plus the commission, and the ledger explains every minor unit.
void mixed_race(bool slow) {
    const int64_t start = cabinet::unix_now() + 2 * 3600;  // due for autopay (within a day)
    const Shopper s = subscribed_shopper(10 * kStandardPrice, start);
    exec("UPDATE subscriptions SET autopay_enabled = true WHERE user_id = " + std::to_string(s.id));
    const int64_t stars_tx = open_stars_invoice(s);
    const Shopper referee = new_shopper("ref_" + s.referral_code);
    set_balance(referee.tg, kStandardPrice);
    std::vector<std::string> promos;
    for (int i = 0; i < 4; ++i) promos.push_back(new_days_promo(3));
    const Books before = books(s);
    if (slow) slow_panel(120, 400);

    constexpr int kRenewals = 6;
    std::vector<long> renew_status(kRenewals);
    std::atomic<int> promo_ok{0};
    long stars_status = 0, referee_status = 0;
    int autopay_rc = -1, sync_rc = -1;
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < kRenewals; ++i) tasks.push_back([&, i] { renew_status[i] = renew(s); });
    for (const auto& code : promos) tasks.push_back([&, code] { promo_ok += activate(s, code) ? 1 : 0; });
    tasks.push_back([&] { stars_status = pay_stars_invoice(s, stars_tx); });
    tasks.push_back([&] { referee_status = renew(referee); });
    tasks.push_back([&] { autopay_rc = run_autopay_scan(); });
    tasks.push_back([&] { sync_rc = run_panel_sync(s); });
    run_together(tasks);

    BOOST_TEST(stars_status == 200);
    BOOST_TEST(referee_status == 200);
    BOOST_TEST(autopay_rc == 0);
    BOOST_TEST(sync_rc == 0);
    // The worker's part: the Stars fulfilment, the referral bonus, the autopay renewal.
    BOOST_TEST(jobs_done("transaction_id", std::to_string(stars_tx)));
    BOOST_TEST(jobs_done("referral_id", std::to_string(referee.id)));
    BOOST_TEST(jobs_done("user_id", std::to_string(s.id)));
    panel_normal();

    const int64_t renewed = std::count(renew_status.begin(), renew_status.end(), 200L);
    const int64_t autopaid = autopay_renewals(s);
    BOOST_TEST(renewed == kRenewals);
    BOOST_TEST(promo_ok.load() == 4);
    BOOST_TEST(stars_fulfilled(stars_tx));
    BOOST_TEST(bonus_granted(referee));
    BOOST_TEST(autopaid <= 1);

    const Books after = books(s);
    const int64_t days = 30 * (renewed + autopaid + 1 /* stars */) + 3 * promo_ok.load() + kBonusDays;
    BOOST_TEST(after.expire_at - start == days * kDay);
    BOOST_TEST(after.balance == before.balance - (renewed + autopaid) * kStandardPrice + kCommission);
    BOOST_TEST(after.ledger_sum == after.balance);
    BOOST_TEST(after.ledger_rows - before.ledger_rows == renewed + autopaid + 1 /* commission */);
    BOOST_TEST(after.panel_expire_at == after.expire_at);
    BOOST_TEST(history_break(s, before.history_id, start) == "");
    const auto [rc, out] = check_ledger();
    BOOST_TEST(rc == 0, out);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(money_mixed_races)

BOOST_AUTO_TEST_CASE(every_grant_and_charge_on_one_account_at_once) { mixed_race(false); }

// Each panel call 120 ms late: the writers queue on the user's lock for seconds.
BOOST_AUTO_TEST_CASE(the_same_with_a_slow_panel) { mixed_race(true); }

BOOST_AUTO_TEST_SUITE_END()
