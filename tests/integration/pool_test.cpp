// The pool under restarts: SIGTERM lets in-flight requests finish and answers what still
// comes on the connections nginx keeps until nginx has closed them, nginx moves on to the
// other process, and the supervisor brings the stopped one back. No request is lost, a POST
// included. And the connections nginx keeps never tie up the threads.
#include <boost/test/unit_test.hpp>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "pool_direct.hpp"
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

// SIGTERM to pool process `process` (1-based), as systemd or the stack's supervisor sends it.
void stop_process(int process) {
    const std::string cmd = "pkill -TERM -f -- 'cabinet-fc[g]i --listen unix:" + env("STACK_DIR") + "/run/fcgi-" +
                            std::to_string(process) + ".sock'";
    BOOST_TEST_REQUIRE(std::system(cmd.c_str()) == 0);
}

// Whether a process answers on run/fcgi-N.sock (the old one unlinked it when it stopped;
// its successor makes it again).
bool answers(int process) {
    try {
        return pool_request(process, "GET", "/health").status == 200;
    } catch (const std::exception&) {
        return false;
    }
}

// The pool's connections counter, summed over the host's processes (/metrics).
long connections_accepted() {
    const auto r = http("GET", "/metrics");
    const std::string name = "\ncabinet_pool_connections_total ";
    const size_t at = r.body.find(name);
    BOOST_TEST_REQUIRE(at != std::string::npos);
    return std::stol(r.body.substr(at + name.size()));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(pool)

BOOST_AUTO_TEST_CASE(sigterm_under_load_loses_no_request) {
    const std::string header = tma_header(100000001, "Demo");
    std::atomic<int> ok{0}, refused{0}, failed{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> clients;
    for (int t = 0; t < 6; ++t)
        clients.emplace_back([&, t] {
            while (!stop) {
                try {
                    // Half of the clients POST, which nginx never repeats on another process
                    // once sent: a purchase of a plan that does not exist, refused with a 400
                    // and nothing written.
                    if (t % 2) {
                        const auto r = http("POST", "/api/cabinet/purchase", {header, "Content-Type: application/json"},
                                            R"({"method":"balance","plan_id":999999,"days":30})");
                        (r.status == 400 ? refused : failed)++;
                    } else {
                        const auto r = http("GET", "/api/cabinet/me", {header});
                        (r.status == 200 ? ok : failed)++;
                    }
                } catch (const std::exception&) {
                    failed++;
                }
            }
        });
    for (const int process : {1, 2, 1}) {
        std::this_thread::sleep_for(std::chrono::milliseconds(700));
        stop_process(process);
        // It answers on its kept connections until nginx closes them (about 2 s), then
        // exits; the supervisor restarts it a second later.
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        BOOST_TEST(wait_until([&] { return answers(process); }, 15000));
    }
    stop = true;
    for (auto& c : clients) c.join();
    BOOST_TEST(ok.load() > 100);
    BOOST_TEST(refused.load() > 100);
    BOOST_TEST(failed.load() == 0);
    BOOST_TEST(wait_for_status("/health", 200));
}

// nginx keeps its connections to the pool open between requests: the pool accepts far fewer
// connections than it answers requests. Fails when fastcgi_keep_conn or the upstream's
// keepalive is dropped from the nginx config (one connection a request).
BOOST_AUTO_TEST_CASE(nginx_keeps_its_connections_to_the_pool) {
    const long before = connections_accepted();
    for (int i = 0; i < 60; ++i) BOOST_TEST_REQUIRE(http("GET", "/api/cabinet/config").status == 200);
    const long accepted = connections_accepted() - before;
    BOOST_TEST_MESSAGE("61 requests through nginx, " << accepted << " connections accepted");
    BOOST_TEST(accepted <= 6);
}

// Connections kept open do not hold the threads: twice as many as a process has threads,
// each waiting for its next request, and a request on a new connection and a second one on
// each kept connection are all answered at once. (libfcgi's own loop ties a thread to a kept
// connection until nginx closes it: the thread count + 1st would wait.)
BOOST_AUTO_TEST_CASE(kept_connections_outnumber_the_threads_and_none_waits) {
    BOOST_TEST_REQUIRE(wait_until([] { return answers(1); }, 15000));
    const int threads = std::stoi(env("POOL_THREADS"));
    std::vector<std::unique_ptr<KeptConnection>> kept;
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < 2 * threads; ++i) {
        kept.push_back(std::make_unique<KeptConnection>(1));
        BOOST_TEST_REQUIRE(kept.back()->request("GET", "/health").status == 200);
    }
    BOOST_TEST(pool_request(1, "GET", "/health").status == 200);
    for (auto& c : kept) {
        BOOST_TEST(!c->closed_by_process());
        BOOST_TEST(c->request("GET", "/api/cabinet/config").status == 200);
    }
    const auto took = std::chrono::steady_clock::now() - started;
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(took).count() < 2000);
}

// Neither do connections on which nothing arrives: twice as many as the threads, opened and
// left silent, and a request on a new connection is still answered at once.
BOOST_AUTO_TEST_CASE(silent_connections_hold_no_thread) {
    BOOST_TEST_REQUIRE(wait_until([] { return answers(1); }, 15000));
    std::vector<std::unique_ptr<KeptConnection>> silent;
    for (int i = 0; i < 2 * std::stoi(env("POOL_THREADS")); ++i) silent.push_back(std::make_unique<KeptConnection>(1));
    const auto asked = std::chrono::steady_clock::now();
    BOOST_TEST(pool_request(1, "GET", "/health").status == 200);
    const auto took = std::chrono::steady_clock::now() - asked;
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(took).count() < 1000);
    BOOST_TEST(silent.back()->request("GET", "/health").status == 200);
}

// A process told to stop still answers on a connection nginx kept (nginx may already be
// sending on it), and exits as soon as that connection is closed, not at the end of its
// drain time.
BOOST_AUTO_TEST_CASE(a_stopping_process_answers_on_kept_connections_until_they_close) {
    BOOST_TEST_REQUIRE(wait_until([] { return answers(2); }, 15000));
    auto kept = std::make_unique<KeptConnection>(2);
    BOOST_TEST_REQUIRE(kept->request("GET", "/health").status == 200);
    stop_process(2);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    BOOST_TEST(!answers(2), "a stopping process takes no new connection");
    BOOST_TEST(kept->request("GET", "/api/cabinet/config").status == 200);
    BOOST_TEST(!kept->closed_by_process());
    const auto closed = std::chrono::steady_clock::now();
    kept.reset();
    // It exits at once; its supervisor waits a second before the restart.
    BOOST_TEST(wait_until([] { return answers(2); }, 15000));
    const auto back = std::chrono::steady_clock::now() - closed;
    BOOST_TEST(std::chrono::duration_cast<std::chrono::milliseconds>(back).count() < 8000);  // not the 10 s drain
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
