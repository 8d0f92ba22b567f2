#pragma once
// The process side of every FastCGI program here (the pool, the mock panel): open the
// listener, run N threads that each accept and answer requests, and on SIGTERM/SIGINT
// stop accepting, let in-flight requests finish (up to drain_seconds), then return.
// PRACTICE.md "libfcgi" has the pattern and why it is this way.
#include <functional>
#include <string>

namespace cabinet {

struct FcgiOptions {
    std::string name = "fcgi";    // for the log
    std::string listen = "fd:0";  // fd:N | unix:/path | host:port
    int threads = 4;
    int backlog = 1024;
    int drain_seconds = 10;
};

// `serve(listen_fd)` is one thread's accept loop; it returns once FCGX_Accept_r fails at
// shutdown. An exception out of it aborts the process (the supervisor restarts it).
int run_fcgi_threads(const FcgiOptions& opts, const std::function<void(int listen_fd)>& serve);

}  // namespace cabinet
