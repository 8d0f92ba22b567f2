// The pool under restarts: SIGTERM lets in-flight requests finish, nginx moves on to the
// other process, and the supervisor brings the stopped one back. No request is lost.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(pool)

BOOST_AUTO_TEST_CASE(sigterm_under_load_loses_no_request) {
    const std::string header = tma_header(100000001, "Demo");
    std::atomic<int> ok{0}, failed{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int t = 0; t < 6; ++t)
        clients.emplace_back([&] {
            while (!stop) {
                try {
                    const auto r = http("GET", "/api/cabinet/me", {header});
                    (r.status == 200 ? ok : failed)++;
                } catch (const std::exception&) {
                    failed++;
                }
            }
        });
    const std::string dir = env("STACK_DIR");
    for (const char* sock : {"fcgi-1.sock", "fcgi-2.sock", "fcgi-1.sock"}) {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        const std::string cmd = "pkill -TERM -f -- 'cabinet-fc[g]i --listen unix:" + dir + "/run/" + std::string(sock) + "'";
        BOOST_TEST(std::system(cmd.c_str()) == 0);
        // The supervisor restarts it after a second; wait until its socket is back.
        std::this_thread::sleep_for(std::chrono::milliseconds(1600));
    }
    stop = true;
    for (auto& c : clients) c.join();
    BOOST_TEST(ok.load() > 100);
    BOOST_TEST(failed.load() == 0);
    BOOST_TEST(wait_for_status("/health", 200));
}

BOOST_AUTO_TEST_SUITE_END()
