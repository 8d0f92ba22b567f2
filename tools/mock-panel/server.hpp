#pragma once
// The FastCGI side: N threads accepting on one socket, each answering through App;
// SIGTERM/SIGINT let in-flight requests finish, then return. Same pattern as the pool
// (fcgi-app/server.cpp).
#include <string>

#include "app.hpp"

namespace mock {

struct ServerOptions {
    std::string listen = "fd:0";  // fd:N | unix:/path | host:port
    int threads = 4;
    int backlog = 256;
    int drain_seconds = 5;
};

int run_server(App& app, const ServerOptions& opts);

}  // namespace mock
