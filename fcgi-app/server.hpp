#pragma once
// One pool process: M threads accepting on one FastCGI socket, each with its own
// connections; SIGTERM/SIGINT let in-flight requests finish, then the process exits.
#include "app/context.hpp"

namespace cabinet {

struct ServerOptions {
    std::string listen = "fd:0";  // fd:N | unix:/path | host:port
    int threads = 4;
    int backlog = 1024;
    int drain_seconds = 10;  // longest wait for in-flight requests at shutdown
};

int run_server(const Shared& shared, const ServerOptions& opts);

}  // namespace cabinet
