#pragma once
// One pool process: M threads accepting on one FastCGI socket, each with its own
// connections; SIGTERM/SIGINT let in-flight requests finish, then the process exits.
#include "app/context.hpp"
#include "http/fcgi_threads.hpp"

namespace cabinet {

using ServerOptions = FcgiOptions;

int run_server(const Shared& shared, const ServerOptions& opts);

}  // namespace cabinet
