#pragma once
// The FastCGI side: N threads accepting on one socket, each answering through App;
// SIGTERM/SIGINT let in-flight requests finish, then return. Same pattern as the pool
// (fcgi-app/server.cpp).
#include <string>

#include "app.hpp"
#include "http/fcgi_threads.hpp"

namespace mock {

using ServerOptions = cabinet::FcgiOptions;

int run_server(App& app, const ServerOptions& opts);

}  // namespace mock
