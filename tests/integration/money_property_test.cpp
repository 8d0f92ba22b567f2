// Property-style: random batches of parallel operations on one account for a fixed time,
// the invariants checked after every batch (issue 12). The operations are the ones that
// grant days or move money (renewals, promo days, Stars paid and fulfilled by the worker,
// a referee's first purchase landing a bonus and a commission, autopay), mixed with ones
// that must not disturb them (link resets, panel syncs). The seed is printed; set
// MONEY_PROPERTY_SEED to replay a run, MONEY_PROPERTY_SECONDS to run longer.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>

#include "money_support.hpp"
#include "util/time.hpp"

using namespace it;
using namespace it::money;

namespace {

enum class Op { renew, promo, stars, referral, reset_link, sync, autopay };
constexpr Op kOps[] = {Op::renew, Op::renew, Op::promo, Op::stars, Op::referral, Op::reset_link, Op::sync, Op::autopay};

uint64_t env_or(const char* name, uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(money_property)

BOOST_AUTO_TEST_CASE(random_interleavings_keep_the_books_exact) {
    const uint64_t seed = env_or("MONEY_PROPERTY_SEED", std::random_device{}());
    const auto budget = std::chrono::seconds(env_or("MONEY_PROPERTY_SECONDS", 15));
    BOOST_TEST_MESSAGE("money_property seed " << seed << " (MONEY_PROPERTY_SEED replays it)");
    std::mt19937_64 rng(seed);

    const int64_t start = cabinet::unix_now() + 6 * 3600;  // autopay is due until the first grants land
    const Shopper s = subscribed_shopper(400 * kStandardPrice, start);
    exec("UPDATE subscriptions SET autopay_enabled = true WHERE user_id = " + std::to_string(s.id));
    Books expected = books(s);
    const int64_t first_history = expected.history_id;

    const auto deadline = std::chrono::steady_clock::now() + budget;
    int batch = 0;
    while (std::chrono::steady_clock::now() < deadline && batch < 200) {
        ++batch;
        const int n = 3 + static_cast<int>(rng() % 8);
        std::vector<Op> ops;
        for (int i = 0; i < n; ++i) ops.push_back(kOps[rng() % std::size(kOps)]);

        // What each operation needs before the start line.
        std::vector<int64_t> invoices;
        std::vector<Shopper> referees;
        std::vector<std::pair<std::string, int>> promos;
        for (Op op : ops) {
            if (op == Op::stars) invoices.push_back(open_stars_invoice(s));
            if (op == Op::referral) {
                referees.push_back(new_shopper("ref_" + s.referral_code));
                set_balance(referees.back().tg, kStandardPrice);
            }
            if (op == Op::promo) {
                const int days = 1 + static_cast<int>(rng() % 5);
                promos.emplace_back(new_days_promo(days), days);
            }
        }
        const int64_t autopaid_before = autopay_renewals(s);

        std::atomic<int64_t> renewed{0}, promo_days{0}, referred{0};
        std::mutex failed_mutex;
        std::vector<std::string> failed;  // "operation: status"
        const auto fail = [&](const std::string& what, long status) {
            std::lock_guard lock(failed_mutex);
            failed.push_back(what + ": " + std::to_string(status));
        };
        std::vector<std::function<void()>> tasks;
        size_t next_invoice = 0, next_referee = 0, next_promo = 0;
        for (Op op : ops) {
            switch (op) {
                case Op::renew:
                    tasks.push_back([&] { const long st = renew(s); st == 200 ? void(++renewed) : fail("renew", st); });
                    break;
                case Op::promo: {
                    const auto promo = promos[next_promo++];
                    tasks.push_back([&, promo] { activate(s, promo.first) ? void(promo_days += promo.second) : fail("promo", 0); });
                    break;
                }
                case Op::stars: {
                    const int64_t tx = invoices[next_invoice++];
                    tasks.push_back([&, tx] { if (const long st = pay_stars_invoice(s, tx); st != 200) fail("stars", st); });
                    break;
                }
                case Op::referral: {
                    const Shopper* r = &referees[next_referee++];
                    tasks.push_back([&, r] { const long st = renew(*r); st == 200 ? void(++referred) : fail("referee purchase", st); });
                    break;
                }
                case Op::reset_link:
                    tasks.push_back([&] { const long st = reset_link(s); if (st != 200 && st != 429) fail("reset link", st); });
                    break;
                case Op::sync:
                    tasks.push_back([&] { if (const int rc = run_panel_sync(s); rc != 0) fail("sync-panel", rc); });
                    break;
                case Op::autopay:
                    tasks.push_back([&] { if (const int rc = run_autopay_scan(); rc != 0) fail("autopay scan", rc); });
                    break;
            }
        }
        run_together(tasks);
        for (int64_t tx : invoices) BOOST_REQUIRE(jobs_done("transaction_id", std::to_string(tx)));
        for (const Shopper& r : referees) BOOST_REQUIRE(jobs_done("referral_id", std::to_string(r.id)));
        BOOST_REQUIRE(jobs_done("user_id", std::to_string(s.id)));

        const int64_t autopaid = autopay_renewals(s) - autopaid_before;
        int64_t fulfilled = 0;
        for (int64_t tx : invoices) fulfilled += stars_fulfilled(tx);
        int64_t bonuses = 0;
        for (const Shopper& r : referees) bonuses += bonus_granted(r);

        expected.expire_at += kDay * (30 * (renewed + autopaid + fulfilled) + promo_days + kBonusDays * bonuses);
        expected.balance += -kStandardPrice * (renewed + autopaid) + kCommission * referred;
        const Books now = books(s);
        BOOST_TEST_CONTEXT("batch " << batch << " of seed " << seed) {
            BOOST_TEST(failed.empty(), "failed: " << (failed.empty() ? "" : failed.front()) << " (" << failed.size() << ")");
            BOOST_TEST(fulfilled == static_cast<int64_t>(invoices.size()));
            BOOST_TEST(bonuses == referred.load());
            BOOST_TEST(now.expire_at == expected.expire_at);
            BOOST_TEST(now.balance == expected.balance);
            BOOST_TEST(now.ledger_sum == now.balance);
            BOOST_TEST(now.panel_expire_at == now.expire_at);
            BOOST_TEST(history_break(s, first_history, start) == "");
        }
        if (now.expire_at != expected.expire_at || now.balance != expected.balance) break;  // one report is enough
    }
    BOOST_TEST_MESSAGE("money_property: " << batch << " batches");
    BOOST_TEST(batch >= 3);
    const auto [rc, out] = check_ledger();
    BOOST_TEST(rc == 0, out);
}

BOOST_AUTO_TEST_SUITE_END()
