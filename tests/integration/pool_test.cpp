// The pool under restarts: SIGTERM lets in-flight requests finish, nginx moves on to the
// other process, and the supervisor brings the stopped one back. No request is lost.
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "support.hpp"

using namespace it;

namespace {

// One FastCGI record (version 1, request id 1), as nginx sends them.
std::string record(unsigned char type, const std::string& content) {
    std::string r{char(1), char(type), char(0), char(1), char(content.size() >> 8), char(content.size() & 0xff),
                  char(0), char(0)};
    return r + content;
}

std::string param(const std::string& name, const std::string& value) {  // both under 128 bytes
    return std::string(1, char(name.size())) + std::string(1, char(value.size())) + name + value;
}

}  // namespace

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

// A pool process is free for the next request as soon as it has answered: it does not hold
// a thread until the peer closes its end (libfcgi's lingering close waits up to 2 s for
// that). Here every thread of one process answers a client that then keeps its connection
// open, and one more request to that process must still be answered at once. Spoken as
// nginx speaks FastCGI, the whole request first, over the process's own socket.
BOOST_AUTO_TEST_CASE(a_process_is_free_again_once_it_has_answered) {
    const std::string path = env("STACK_DIR") + "/run/fcgi-1.sock";
    const std::string begin{char(0), char(1), char(0), char(0), char(0), char(0), char(0), char(0)};  // responder
    const std::string params =
        param("REQUEST_METHOD", "GET") + param("REQUEST_URI", "/health") + param("REMOTE_ADDR", "127.0.0.1");
    const std::string request = record(1, begin) + record(4, params) + record(4, "") + record(5, "");
    // Sends the request, reads the answer until the process closes; the socket stays open.
    const auto ask = [&](std::string& answer) {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        BOOST_TEST_REQUIRE(fd >= 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
        // The process may be coming back from the test before (its supervisor waits a second).
        BOOST_TEST_REQUIRE(wait_until(
            [&] { return ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0; }, 5000));
        BOOST_TEST_REQUIRE(::write(fd, request.data(), request.size()) == ssize_t(request.size()));
        char buf[4096];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) answer.append(buf, size_t(n));
        return fd;
    };
    std::vector<int> held;
    for (int i = 0; i < std::stoi(env("POOL_THREADS")); ++i) {
        std::string answer;
        held.push_back(ask(answer));
        BOOST_TEST(answer.find("Status: 200") != std::string::npos);
    }
    const auto asked = std::chrono::steady_clock::now();
    std::string answer;
    held.push_back(ask(answer));
    const auto took = std::chrono::steady_clock::now() - asked;
    for (const int fd : held) ::close(fd);
    BOOST_TEST(answer.find("Status: 200") != std::string::npos);
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(took).count() < 1000);
}

BOOST_AUTO_TEST_SUITE_END()
