#include "server.hpp"

#include <fcgiapp.h>
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "errors.hpp"
#include "http/fcgi_io.hpp"
#include "util/strings.hpp"

namespace mock {
namespace {

constexpr int64_t kMaxBody = 1 << 20;  // the panel's bodies are small; this only stops abuse

int open_listener(const ServerOptions& o) {
    if (cabinet::starts_with(o.listen, "fd:")) {
        int64_t fd = 0;
        if (!cabinet::parse_int64(o.listen.substr(3), fd) || fd < 0) throw std::runtime_error("--listen: bad fd");
        return static_cast<int>(fd);
    }
    const bool unix_socket = cabinet::starts_with(o.listen, "unix:");
    const std::string path = unix_socket ? o.listen.substr(5) : o.listen;
    if (unix_socket) unlink(path.c_str());  // a stale socket of a previous run
    const int fd = FCGX_OpenSocket(path.c_str(), o.backlog);
    if (fd < 0) throw std::runtime_error("--listen: cannot listen on " + o.listen);
    // nginx runs as another user; the socket's directory is what guards it.
    if (unix_socket) chmod(path.c_str(), 0666);
    return fd;
}

void serve(App& app, int listen_fd) {
    FCGX_Request fr;
    FCGX_InitRequest(&fr, listen_fd, 0);
    while (FCGX_Accept_r(&fr) >= 0) {
        const auto started = std::chrono::steady_clock::now();
        cabinet::Request req;
        cabinet::Response resp;
        try {
            cabinet::read_request(fr, kMaxBody, req);
            const char* ua = FCGX_GetParam("HTTP_USER_AGENT", fr.envp);
            app.handle(req, ua ? ua : "", resp);
        } catch (const cabinet::ApiError& e) {  // the request could not even be read
            resp.reset();
            resp.status = e.status();
            auto& w = resp.json();
            w.StartObject();
            w.Key("message");
            w.String(e.detail());
            w.Key("statusCode");
            w.Int(e.status());
            w.EndObject();
        }
        cabinet::write_response(fr, req, resp);
        FCGX_Finish_r(&fr);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        spdlog::info("{} {} {} {:.2f}ms", req.method, req.path, resp.status, ms);
    }
    FCGX_Free(&fr, 0);
}

}  // namespace

int run_server(App& app, const ServerOptions& opts) {
    if (FCGX_Init() != 0) throw std::runtime_error("FCGX_Init failed");
    const int listen_fd = open_listener(opts);

    // Block the stop signals in every thread; this one waits for them with sigwait.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);

    std::vector<std::thread> workers;
    std::vector<std::atomic<bool>> done(static_cast<size_t>(opts.threads));
    for (int i = 0; i < opts.threads; ++i) {
        workers.emplace_back([&app, listen_fd, &done, i] {
            try {
                serve(app, listen_fd);
            } catch (const std::exception& e) {
                spdlog::critical("mock-panel thread {} died: {}", i, e.what());
                std::abort();  // let the supervisor restart the process
            }
            done[static_cast<size_t>(i)] = true;
        });
    }
    spdlog::info("mock-panel listening on {} with {} threads", opts.listen, opts.threads);

    int sig = 0;
    sigwait(&stop, &sig);
    spdlog::info("signal {}: finishing in-flight requests", sig);
    FCGX_ShutdownPending();
    if (cabinet::starts_with(opts.listen, "unix:")) unlink(opts.listen.substr(5).c_str());
    close(listen_fd);
    // libfcgi's SIGUSR1 handler makes a blocked accept() return; repeat it for threads
    // that were between accepts when the first one came.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(opts.drain_seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        bool all_done = true;
        for (size_t i = 0; i < workers.size(); ++i)
            if (!done[i]) {
                all_done = false;
                pthread_kill(workers[i].native_handle(), SIGUSR1);
            }
        if (all_done) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    for (size_t i = 0; i < workers.size(); ++i) {
        if (!done[i]) {
            // A request under an injected delay, most likely; the state is already on disk.
            spdlog::warn("mock-panel thread {} still busy after {} s, exiting anyway", i, opts.drain_seconds);
            spdlog::shutdown();
            _exit(0);
        }
    }
    for (auto& t : workers) t.join();
    spdlog::info("mock-panel stopped");
    return 0;
}

}  // namespace mock
