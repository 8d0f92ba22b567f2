#pragma once
// The process side of every FastCGI program here (the pool, the mock panel): open the
// listener, run N threads that each take the next request of any connection
// (http/fcgi_connections.hpp) and answer it, and on SIGTERM/SIGINT stop accepting, answer
// what still comes on the connections nginx keeps until nginx has closed them and the last
// request is answered (up to drain_seconds), then return. PRACTICE.md "libfcgi" has the
// pattern; docs/decisions.md "Connections nginx keeps open" the drain.
#include <functional>
#include <string>

#include "http/fcgi_connections.hpp"
#include "metrics/counter.hpp"

namespace cabinet {

struct FcgiOptions {
    std::string name = "fcgi";    // for the log
    std::string listen = "fd:0";  // fd:N | unix:/path | host:port
    int threads = 4;
    int backlog = 1024;
    int drain_seconds = 10;
    metrics::Counter connections;  // connections accepted (the pool's metrics; none by default)
};

// `serve(conns)` is one thread's loop over conns.next(); it returns once next() is false at
// shutdown. An exception out of it aborts the process (the supervisor restarts it).
int run_fcgi_threads(const FcgiOptions& opts, const std::function<void(FcgiConnections& conns)>& serve);

}  // namespace cabinet
