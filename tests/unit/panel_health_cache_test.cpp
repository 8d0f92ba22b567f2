// GET /health/deep's panel probe: one in flight per process, reused for the TTL.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <future>
#include <thread>
#include <vector>

#include "panel/panel_health_cache.hpp"

using cabinet::PanelHealthCache;

BOOST_AUTO_TEST_SUITE(panel_health_cache)

BOOST_AUTO_TEST_CASE(one_probe_in_flight_and_nobody_waits_for_it) {
    const PanelHealthCache cache(60000);
    std::atomic<int> probes{0};
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    // The first caller probes a "slow panel" that answers only once every other caller is
    // back: had they waited for the probe, this would never end.
    std::thread prober([&] { BOOST_TEST(cache.alive([&] { ++probes; released.wait(); return true; })); });
    while (probes == 0) std::this_thread::yield();
    std::vector<std::future<bool>> others;
    for (int i = 0; i < 16; ++i)
        others.push_back(std::async(std::launch::async, [&] { return cache.alive([&] { ++probes; return true; }); }));
    for (auto& f : others) BOOST_TEST(f.get() == false);  // nothing known yet: not reported alive
    release.set_value();
    prober.join();
    BOOST_TEST(probes == 1);
    BOOST_TEST(cache.alive([&] { ++probes; return false; }));  // fresh: reused, not probed
    BOOST_TEST(probes == 1);
}

BOOST_AUTO_TEST_CASE(a_stale_answer_is_probed_again_and_a_throw_is_down) {
    const PanelHealthCache cache(0);
    int probes = 0;
    BOOST_TEST(cache.alive([&] { ++probes; return true; }));
    BOOST_TEST(!cache.alive([&]() -> bool { ++probes; throw std::runtime_error("panel unreachable"); }));
    BOOST_TEST(probes == 2);
}

BOOST_AUTO_TEST_SUITE_END()
