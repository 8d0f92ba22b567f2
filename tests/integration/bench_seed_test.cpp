// The benchmark's data (cabinetctl seed-demo --bench-users N, issue 17): N users with the
// history a real shop has, books that balance, panel users the mock can load, and a second
// run that adds nothing.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "support.hpp"

using namespace it;

namespace {

constexpr const char* kBench = "u.telegram_id BETWEEN 900000001 AND 900000200";

// Rows belonging to the first 200 bench users, table by table.
std::string bench_rows() {
    std::string out;
    for (const char* sql : {
             "SELECT count(*) FROM users u WHERE ",
             "SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE ",
             "SELECT count(*) FROM transactions t JOIN users u ON u.id = t.user_id WHERE ",
             "SELECT count(*) FROM balance_ledger l JOIN users u ON u.id = l.user_id WHERE ",
             "SELECT count(*) FROM subscription_history h JOIN users u ON u.id = h.user_id WHERE ",
             "SELECT count(*) FROM referral_earnings r JOIN users u ON u.id = r.referrer_id WHERE ",
             "SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id WHERE ",
         })
        out += std::to_string(count(std::string(sql) + kBench)) + " ";
    return out;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bench_seed)

BOOST_AUTO_TEST_CASE(two_hundred_bench_users_with_history_once) {
    char dir[] = "/tmp/bench-seed-XXXXXX";
    BOOST_TEST_REQUIRE(mkdtemp(dir) != nullptr);
    const std::string state = std::string(dir) + "/state.json";

    const auto [rc, out] = run(ctl("seed-demo --bench-users 200 --panel-state " + state));
    BOOST_TEST_REQUIRE(rc == 0, out);
    BOOST_TEST(out.find(" in ") != std::string::npos, out);  // it says how long it took
    const std::string after_first = bench_rows();

    BOOST_TEST(count(std::string("SELECT count(*) FROM users u WHERE ") + kBench) == 200);
    // Every one with a subscription: mostly active, some expired, some on a trial.
    BOOST_TEST(count(std::string("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE ") +
                     kBench) == 200);
    const auto with_status = [](const std::string& status) {
        return count("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE " + std::string(kBench) +
                     " AND s.status = '" + status + "'");
    };
    BOOST_TEST(with_status("active") > 150);
    BOOST_TEST(with_status("expired") > 0);
    BOOST_TEST(with_status("trial") > 0);
    BOOST_TEST(count(std::string("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE ") +
                     kBench + " AND (s.expire_at > now()) <> (s.status <> 'expired')") == 0);
    // About 20 transactions each, every user with at least its top-ups.
    const auto transactions =
        count(std::string("SELECT count(*) FROM transactions t JOIN users u ON u.id = t.user_id WHERE ") + kBench);
    BOOST_TEST(transactions >= 200 * 19);
    BOOST_TEST(transactions <= 200 * 21);
    // History is history: no payment, ledger row or renewal lies in the future (an active
    // subscription's last purchase once did, which put a month of payments in "the last hour").
    for (const char* table : {"transactions", "balance_ledger", "subscription_history"})
        BOOST_TEST(count(std::string("SELECT count(*) FROM ") + table + " t JOIN users u ON u.id = t.user_id WHERE " +
                         kBench + " AND t.created_at > now()") == 0,
                   table);
    BOOST_TEST(count(std::string("SELECT min(n) FROM (SELECT count(t.id) AS n FROM users u LEFT JOIN transactions t"
                                 " ON t.user_id = u.id WHERE ") + kBench + " GROUP BY u.id) x") >= 10);
    // Referrals: invited users, and their inviters' commissions in the books.
    BOOST_TEST(count(std::string("SELECT count(*) FROM users u WHERE referred_by IS NOT NULL AND ") + kBench) > 0);
    BOOST_TEST(count(std::string("SELECT count(*) FROM referral_earnings r JOIN users u ON u.id = r.referrer_id WHERE ") +
                     kBench) > 0);
    BOOST_TEST(count(std::string("SELECT count(*) FROM balance_ledger l JOIN users u ON u.id = l.user_id WHERE ") +
                     kBench + " AND l.reason = 'referral_commission'") > 0);
    // Each purchase in the subscription history, each row starting where the one before ended.
    BOOST_TEST(count(std::string("SELECT count(*) FROM subscription_history h JOIN users u ON u.id = h.user_id WHERE ") +
                     kBench) > 200 * 9);
    BOOST_TEST(count(std::string("SELECT count(*) FROM (SELECT h.expire_before, lag(h.expire_after) OVER"
                                 " (PARTITION BY h.user_id ORDER BY h.id) AS prev FROM subscription_history h"
                                 " JOIN users u ON u.id = h.user_id WHERE ") + kBench +
                     ") x WHERE x.prev IS NOT NULL AND x.prev <> x.expire_before") == 0);
    BOOST_TEST(count(std::string("SELECT count(*) FROM events e JOIN users u ON u.id = e.user_id WHERE ") + kBench +
                     " AND e.kind = 'registration'") == 200);
    // The funds for the purchase mix, explained by the ledger; the whole book checks out.
    BOOST_TEST(count(std::string("SELECT count(*) FROM users u WHERE balance_minor = 1000000000 AND ") + kBench) == 200);
    const auto [ledger_rc, ledger_out] = run(ctl("check-ledger"));
    BOOST_TEST(ledger_rc == 0, ledger_out);

    // The mock panel's snapshot got one panel user per bench subscription, as the mock
    // writes them (its format and the uuids the subscriptions point at).
    rapidjson::Document doc;
    doc.Parse(read_file(state).c_str());
    BOOST_TEST_REQUIRE(!doc.HasParseError());
    BOOST_TEST(std::string(doc["format"].GetString()) == "cabinet-mock-panel/1");
    BOOST_TEST_REQUIRE(doc["users"].Size() == 200u);
    const std::string first_uuid = doc["users"][0]["uuid"].GetString();
    BOOST_TEST(count("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.telegram_id = 900000001"
                     " AND s.panel_uuid = '" + first_uuid + "'") == 1);
    const std::string snapshot = read_file(state);

    // Again: nothing new, in the database or in the snapshot.
    const auto [rc2, out2] = run(ctl("seed-demo --bench-users 200 --panel-state " + state));
    BOOST_TEST_REQUIRE(rc2 == 0, out2);
    BOOST_TEST(out2.find("(0 added, 0 topped up, 0 panel users added)") != std::string::npos, out2);
    BOOST_TEST(bench_rows() == after_first);
    BOOST_TEST(read_file(state) == snapshot);
    const auto [ledger_rc2, ledger_out2] = run(ctl("check-ledger"));
    BOOST_TEST(ledger_rc2 == 0, ledger_out2);
    std::remove(state.c_str());
    rmdir(dir);
}

BOOST_AUTO_TEST_SUITE_END()
