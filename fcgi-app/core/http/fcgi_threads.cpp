#include "http/fcgi_threads.hpp"

#include <fcgiapp.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

int open_listener(const FcgiOptions& o) {
    if (starts_with(o.listen, "fd:")) {
        int64_t fd = 0;
        if (!parse_int64(o.listen.substr(3), fd) || fd < 0) throw ConfigError("--listen: bad fd");
        return static_cast<int>(fd);
    }
    const bool unix_socket = starts_with(o.listen, "unix:");
    const std::string path = unix_socket ? o.listen.substr(5) : o.listen;
    if (unix_socket) unlink(path.c_str());  // a stale socket of a previous run
    const int fd = FCGX_OpenSocket(path.c_str(), o.backlog);
    if (fd < 0) throw ConfigError("--listen: cannot listen on " + o.listen);
    // nginx workers run as another user; the socket's directory is what guards it.
    if (unix_socket) chmod(path.c_str(), 0666);
    return fd;
}

}  // namespace

int run_fcgi_threads(const FcgiOptions& opts, const std::function<void(FcgiConnections&)>& serve) {
    if (FCGX_Init() != 0) throw std::runtime_error("FCGX_Init failed");
    const int listen_fd = open_listener(opts);
    FcgiConnections conns(listen_fd, opts.connections);

    // Block the stop signals in every thread; this one waits for them with sigwait.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);

    std::vector<std::thread> workers;
    std::vector<std::atomic<bool>> done(static_cast<size_t>(opts.threads));
    for (int i = 0; i < opts.threads; ++i) {
        workers.emplace_back([&, i] {
            try {
                serve(conns);
            } catch (const std::exception& e) {
                // An impossible state: let the supervisor restart the whole process.
                spdlog::critical("{} thread {} died: {}", opts.name, i, e.what());
                std::abort();
            }
            done[static_cast<size_t>(i)] = true;
        });
    }
    spdlog::info("{} listening on {} with {} threads", opts.name, opts.listen, opts.threads);

    int sig = 0;
    sigwait(&stop, &sig);
    spdlog::info("signal {}: finishing in-flight requests", sig);
    // Refuse new connections at once so nginx moves on to the next process instead of
    // queueing requests here; a systemd-owned socket stays open in systemd for our successor.
    conns.stop_accepting();
    if (starts_with(opts.listen, "unix:")) unlink(opts.listen.substr(5).c_str());
    close(listen_fd);
    // The connections nginx keeps may still bring requests: answer them until nginx has
    // closed each one (its upstream keepalive_time and keepalive_timeout end them within
    // seconds; closing them from here could race a request nginx is sending, which a POST
    // would not survive), then let the threads go.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(opts.drain_seconds);
    while (conns.open() > 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (conns.open() > 0) spdlog::warn("{}: {} connections still open after {} s, closing them", opts.name, conns.open(), opts.drain_seconds);
    conns.close();
    // A thread in the middle of a request when the deadline came gets one more second.
    const auto last = std::max(deadline, std::chrono::steady_clock::now()) + std::chrono::seconds(1);
    for (bool all_done = false; !all_done && std::chrono::steady_clock::now() < last;) {
        all_done = true;
        for (size_t i = 0; i < workers.size(); ++i) all_done = all_done && done[i];
        if (!all_done) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    for (size_t i = 0; i < workers.size(); ++i) {
        if (!done[i]) {
            spdlog::warn("{} thread {} still busy after {} s, exiting anyway", opts.name, i, opts.drain_seconds);
            spdlog::shutdown();
            _exit(1);
        }
    }
    for (auto& t : workers) t.join();
    spdlog::info("{} stopped", opts.name);
    return 0;
}

}  // namespace cabinet
