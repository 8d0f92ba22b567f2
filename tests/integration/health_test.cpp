// SPEC "Health endpoints": 503 while PostgreSQL or Redis is down, 200 again after they
// return, without restarting the pool; deep check reads the worker heartbeat.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "cache/redis.hpp"
#include "money_support.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(health)

BOOST_AUTO_TEST_CASE(healthy_stack) {
    auto r = http("GET", "/health");
    BOOST_TEST(r.status == 200);
    auto j = r.json();
    BOOST_TEST(std::string(j["status"].GetString()) == "ok");
    BOOST_TEST(j["database"].GetBool());
    BOOST_TEST(j["redis"].GetBool());
    BOOST_REQUIRE(wait_for_status("/health/deep", 200));
    j = http("GET", "/health/deep").json();
    BOOST_TEST(j["worker"].GetBool());
    BOOST_TEST(j["panel"].IsBool());  // informational: the answer is 200 either way
}

BOOST_AUTO_TEST_CASE(redis_outage_and_recovery) {
    stack_svc("stop", "redis");
    auto r = http("GET", "/health");
    BOOST_TEST(r.status == 503);
    auto j = r.json();
    BOOST_TEST(std::string(j["status"].GetString()) == "degraded");
    BOOST_TEST(j["redis"].GetBool() == false);
    BOOST_TEST(j["database"].GetBool() == true);
    BOOST_TEST(http("GET", "/health/deep").status == 503);
    // Redis holds nothing essential: the cabinet keeps answering.
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(100000001, "Demo")}).status == 200);
    stack_svc("start", "redis");
    BOOST_TEST(wait_for_status("/health", 200));
}

BOOST_AUTO_TEST_CASE(postgres_outage_and_recovery) {
    stack_svc("stop", "postgres");
    auto r = http("GET", "/health");
    BOOST_TEST(r.status == 503);
    BOOST_TEST(r.json()["database"].GetBool() == false);
    const auto me = http("GET", "/api/cabinet/me", {tma_header(100000001, "Demo")});
    BOOST_TEST(me.status == 503);
    BOOST_TEST(me.json()["detail"].IsString());
    stack_svc("start", "postgres");
    BOOST_TEST(wait_for_status("/health", 200));
    // Every pool thread reconnects by itself.
    for (int i = 0; i < 40; ++i) BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(100000001, "Demo")}).status == 200);
}

BOOST_AUTO_TEST_CASE(stale_worker_heartbeat_fails_deep_check) {
    stack_svc("stop", "worker");
    cabinet::Redis redis(cabinet::parse_redis_url(env("REDIS_URL")), 500);
    BOOST_REQUIRE(redis.set("cabinet:worker:heartbeat", std::to_string(cabinet::unix_now() - 181)));
    auto r = http("GET", "/health/deep");
    BOOST_TEST(r.status == 503);
    BOOST_TEST(r.json()["worker"].GetBool() == false);
    BOOST_TEST(http("GET", "/health").status == 200);  // the quick check does not look at the worker
    BOOST_REQUIRE(redis.set("cabinet:worker:heartbeat", std::to_string(cabinet::unix_now() - 170)));
    BOOST_TEST(http("GET", "/health/deep").status == 200);
    stack_svc("start", "worker");
    BOOST_TEST(wait_for_status("/health/deep", 200));
}

namespace {

int64_t panel_probes() {
    int64_t n = 0;
    const auto journal = http_url("GET", mock_panel_url("/__mock/journal")).json();  // alive through the loop
    for (const auto& e : journal["response"].GetArray())
        if (std::string(e["path"].GetString()).rfind("/api/system/", 0) == 0) ++n;
    return n;
}

}  // namespace

// /health/deep is public (issue 13): asked many times at once while the panel is slow, it
// probes the panel at most once per pool process, and nobody waits for that probe.
BOOST_AUTO_TEST_CASE(a_burst_of_deep_checks_costs_one_panel_probe_per_process) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5200));  // let earlier probes go stale
    money::slow_panel(1500, 20);
    const int64_t before = panel_probes();
    constexpr int kParallel = 12;
    std::vector<long> status(kParallel);
    std::vector<std::function<void()>> tasks;
    for (int i = 0; i < kParallel; ++i) tasks.push_back([&, i] { status[i] = http("GET", "/health/deep").status; });
    money::run_together(tasks);
    money::panel_normal();
    for (long st : status) BOOST_TEST(st == 200L);  // the panel never makes it 503
    BOOST_TEST(panel_probes() - before <= std::stoll(env("POOL_PROCS")));
}

// nginx cuts a flood of deep checks off with the app's JSON 429.
BOOST_AUTO_TEST_CASE(a_flood_of_deep_checks_is_rate_limited) {
    int limited = 0;
    for (int i = 0; i < 60; ++i) {
        const auto r = http("GET", "/health/deep");
        if (r.status != 429) continue;
        ++limited;
        BOOST_TEST(std::string(r.json()["detail"].GetString()) == "too many requests");
    }
    BOOST_TEST(limited > 0);
    std::this_thread::sleep_for(std::chrono::seconds(4));  // the bucket drains for later tests
    BOOST_TEST(http("GET", "/health/deep").status == 200);
}

BOOST_AUTO_TEST_SUITE_END()
