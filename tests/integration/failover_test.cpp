// PostgreSQL on more than one host (docs/operations.md, "More than one host"): DATABASE_URL
// names several hosts with target_session_attrs=read-write and every reconnect walks the
// list to the writable one; an outage is logged once per connection, and where the pool
// reconnected to is said; a commit lost on the way is a 503 to repeat; a connection that
// reached a read-only server is dropped. The whole drill (a replica promoted under load, a pool host
// killed) is tools/failover-drill; this is the part that fits the suite.
#include <boost/test/unit_test.hpp>

#include "money_support.hpp"
#include "support.hpp"

using namespace it;

namespace {

int64_t log_lines(const std::string& text) {
    const auto [rc, out] = run("cat '" + env("STACK_DIR") + "'/log/fcgi-*.log | grep -c -- '" + text + "' || true");
    return std::stoll(out.empty() ? "0" : out);
}

// A user who has made first contact, with `balance`.
money::Shopper shopper_with(int64_t balance) {
    money::Shopper s = money::new_shopper();
    set_balance(s.tg, balance);
    return s;
}

// What a standby imposes, for the new connections of the role the stack connects as.
void role_read_only(bool on) {
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::nontransaction txn(conn);
    txn.exec("SET default_transaction_read_only = off");  // this session may still write
    txn.exec(on ? "ALTER ROLE CURRENT_USER SET default_transaction_read_only = on"
                : "ALTER ROLE CURRENT_USER RESET default_transaction_read_only");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(failover)

BOOST_AUTO_TEST_CASE(a_dead_first_host_is_passed_over_for_the_writable_one) {
    // Port 1 on loopback refuses: the first host is "down"; the stack's own server is second.
    const PoolWith pool("DATABASE_URL=postgresql://cabinet@/cabinet?host=127.0.0.1," + env("STACK_DIR") +
                        "/run&port=1,5432&target_session_attrs=read-write");
    BOOST_REQUIRE(wait_for_status("/health", 200));
    BOOST_TEST(http("GET", "/health").json()["database"].GetBool());
    const auto s = shopper_with(100000);
    BOOST_TEST(buy_standard(s.auth, "balance", "failover-dead-first").status == 200);  // a write: the connection is the read-write one
    BOOST_TEST(balance_of(s.tg) == 100000 - money::kStandardPrice);
}

// A primary that dies during COMMIT leaves the outcome unknown (pqxx::in_doubt_error). Made
// certain here: a deferred trigger ends the session at its commit. The answer is a 503 to
// repeat, not a 500, and the repeat with the same key buys once.
BOOST_AUTO_TEST_CASE(a_commit_lost_in_flight_is_a_503_to_repeat_with_the_key) {
    const auto s = shopper_with(100000);
    exec("CREATE OR REPLACE FUNCTION failover_test_lose_commit() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN PERFORM pg_terminate_backend(pg_backend_pid()); RETURN NULL; END $$");
    exec("DROP TRIGGER IF EXISTS failover_test_lose_commit ON transactions");
    exec("CREATE CONSTRAINT TRIGGER failover_test_lose_commit AFTER INSERT ON transactions DEFERRABLE INITIALLY "
         "DEFERRED FOR EACH ROW WHEN (NEW.user_id = " + std::to_string(s.id) + ") EXECUTE FUNCTION failover_test_lose_commit()");
    const auto lost = buy_standard(s.auth, "balance", "failover-in-doubt");
    exec("DROP TRIGGER failover_test_lose_commit ON transactions");
    exec("DROP FUNCTION failover_test_lose_commit()");
    BOOST_TEST(lost.status == 503);
    BOOST_TEST(std::string(lost.json()["detail"].GetString()).find("repeat") != std::string::npos);
    BOOST_TEST(lost.headers.count("retry-after") == 1u);
    BOOST_TEST(balance_of(s.tg) == 100000);  // this time it was not written
    BOOST_TEST(buy_standard(s.auth, "balance", "failover-in-doubt").status == 200);
    BOOST_TEST(buy_standard(s.auth, "balance", "failover-in-doubt").status == 409);
    BOOST_TEST(balance_of(s.tg) == 100000 - money::kStandardPrice);
}

// A connection that landed on a read-only server (a proxy still routing new connections to
// a demoted primary) is dropped by the first write it refuses, so each thread finds the
// primary again by itself instead of failing every write until a restart. One thread per
// process, so that the threads which refused are the ones asked again.
BOOST_AUTO_TEST_CASE(a_connection_to_a_read_only_server_is_dropped_by_its_first_refused_write) {
    const auto s = shopper_with(1000000);
    role_read_only(true);
    int refused = 0;
    {
        const PoolWith pool("POOL_THREADS=1");
        for (int i = 0; i < 4; ++i) refused += buy_standard(s.auth, "balance", "failover-read-only-" + std::to_string(i)).status == 503;
        role_read_only(false);
        for (int i = 4; i < 8; ++i) BOOST_TEST(buy_standard(s.auth, "balance", "failover-read-only-" + std::to_string(i)).status == 200);
    }
    BOOST_TEST(refused == 4);
    BOOST_TEST(balance_of(s.tg) == 1000000 - 4 * money::kStandardPrice);
}

BOOST_AUTO_TEST_CASE(an_outage_is_logged_once_per_connection_then_where_it_is_back) {
    const int64_t failed_before = log_lines("database connection failed");
    const int64_t back_before = log_lines("database connection is back, to ");
    stack_svc("stop", "postgres");
    for (int i = 0; i < 60; ++i) BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(100000001, "Demo")}).status == 503);
    stack_svc("start", "postgres");
    BOOST_REQUIRE(wait_for_status("/health", 200));
    for (int i = 0; i < 40; ++i) BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(100000001, "Demo")}).status == 200);
    // At most one warning per pool thread, not one per failed request.
    const int64_t threads = std::stoll(env("POOL_PROCS")) * std::stoll(env("POOL_THREADS"));
    BOOST_TEST(log_lines("database connection failed") - failed_before <= threads);
    BOOST_TEST(log_lines("database connection is back, to ") - back_before >= 1);
}

// A restart of the server leaves each pool thread a dead connection until its next request.
// A panel-first write (a payment's confirmation, a purchase) may not be repeated once it
// started, but a connection found dead by its BEGIN is replaced: no thread answers 503
// once the database is back. Stars payments, as Telegram delivers them, one after another.
BOOST_AUTO_TEST_CASE(after_a_restart_no_thread_refuses_a_payment) {
    const auto s = money::new_shopper();
    std::vector<int64_t> invoices;
    for (int i = 0; i < 24; ++i) {
        const auto r = http("POST", "/api/cabinet/purchase", {s.auth, "Content-Type: application/json"},
                            R"({"plan_id":"standard","days":30,"method":"stars"})");
        BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
        invoices.push_back(r.json()["transaction_id"].GetInt64());
    }
    stack_svc("stop", "postgres");
    stack_svc("start", "postgres");
    BOOST_REQUIRE(wait_for_status("/health", 200));
    int refused = 0;
    for (const int64_t tx : invoices) {
        const std::string id = std::to_string(tx);
        const int64_t stars = count("SELECT (pricing->>'stars')::bigint FROM transactions WHERE id = " + id);
        const auto r = bot_update(R"({"update_id":1,"message":{"message_id":1,"chat":{"id":)" + std::to_string(s.tg) +
                                  R"(},"successful_payment":{"currency":"XTR","total_amount":)" + std::to_string(stars) +
                                  R"(,"invoice_payload":")" + id + R"(","telegram_payment_charge_id":"restart_)" + id + "\"}}}",
                                  env("BOT_WEBHOOK_SECRET"));
        refused += r.status != 200;
    }
    BOOST_TEST(refused == 0);
    BOOST_TEST(count("SELECT count(*) FROM transactions WHERE paid_at IS NOT NULL AND user_id = " + std::to_string(s.id)) == 24);
}

BOOST_AUTO_TEST_SUITE_END()
