// PostgreSQL on more than one host (docs/operations.md, "More than one host"): DATABASE_URL
// names several hosts with target_session_attrs=read-write and every reconnect walks the
// list to the writable one; an outage is logged once per connection, and where the pool
// reconnected to is said. The whole drill (a replica promoted under load, a pool host
// killed) is tools/failover-drill; this is the part that fits the suite.
#include <boost/test/unit_test.hpp>

#include "support.hpp"

using namespace it;

namespace {

int64_t log_lines(const std::string& text) {
    const auto [rc, out] = run("cat '" + env("STACK_DIR") + "'/log/fcgi-*.log | grep -c -- '" + text + "' || true");
    return std::stoll(out.empty() ? "0" : out);
}

std::string buy(const std::string& auth) {
    return std::to_string(http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json",
                                                                  "Idempotency-Key: failover-" + auth.substr(auth.size() - 12)},
                               R"({"plan_id":"standard","days":30,"method":"balance"})")
                              .status);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(failover)

BOOST_AUTO_TEST_CASE(a_dead_first_host_is_passed_over_for_the_writable_one) {
    // Port 1 on loopback refuses: the first host is "down"; the stack's own server is second.
    const PoolWith pool("DATABASE_URL=postgresql://cabinet@/cabinet?host=127.0.0.1," + env("STACK_DIR") +
                        "/run&port=1,5432&target_session_attrs=read-write");
    BOOST_REQUIRE(wait_for_status("/health", 200));
    BOOST_TEST(http("GET", "/health").json()["database"].GetBool());
    const int64_t tg = fresh_telegram_id();
    const std::string auth = tma_header(tg);
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {auth}).status == 200);
    set_balance(tg, 100000);
    BOOST_TEST(buy(auth) == "200");  // a write: the connection is the read-write one
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = " + std::to_string(tg)) == 100000 - 29900);
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

BOOST_AUTO_TEST_SUITE_END()
