// cabinet-fcgi: one process of the FastCGI pool. See server.hpp and DESIGN.md "Processes".
#include <curl/curl.h>
#include <malloc.h>
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <iostream>
#include <thread>

#include "api/handlers.hpp"
#include "cache/change_listener.hpp"
#include "db/db.hpp"
#include "errors.hpp"
#include "log/logging.hpp"
#include "panel/panel_probe.hpp"
#include "server.hpp"
#include "util/strings.hpp"

namespace {

void usage() {
    std::cout << "usage: cabinet-fcgi [--listen fd:N|unix:/path|host:port] [--threads M]\n"
                 "  --listen   where to accept FastCGI connections (default fd:0, systemd socket)\n"
                 "  --threads  worker threads, each with its own PostgreSQL and Redis connection\n"
                 "             (default: 4 per core)\n"
                 "Settings come from the environment; see systemd/cabinet.env.example.\n";
}

}  // namespace

int main(int argc, char** argv) {
    cabinet::ServerOptions opts;
    opts.name = "cabinet-fcgi";
    opts.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()) * 4);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--listen" || arg == "--threads") && i + 1 < argc) {
            const std::string value = argv[++i];
            if (arg == "--listen") opts.listen = value;
            else {
                int64_t n = 0;
                if (!cabinet::parse_int64(value, n) || n < 1 || n > 1024) {
                    std::cerr << "cabinet-fcgi: --threads must be 1..1024\n";
                    return 2;
                }
                opts.threads = static_cast<int>(n);
            }
        } else if (arg == "--help" || arg == "-h") {
            usage();
            return 0;
        } else {
            usage();
            return 2;
        }
    }
    // glibc gives threads up to 8 malloc arenas per core, each growing its own heap and
    // keeping what its thread freed: with the pool's threads that was 8 heaps of ~1.4 MB.
    // One arena for all: each thread's tcache serves its small allocations without the
    // arena's lock, and the pool's CPU per request measured the same with one arena as
    // with one per core, for 0.4 MB less (docs/decisions.md "A pool process under 20 MB").
    mallopt(M_ARENA_MAX, 1);
    try {
        if (sodium_init() < 0) throw std::runtime_error("libsodium init failed");
        curl_global_init(CURL_GLOBAL_DEFAULT);
        cabinet::Settings settings = cabinet::load_settings_from_environment();
        cabinet::setup_logging(settings.log_level, "cabinet-fcgi", settings.log_format);
        for (const auto& notice : settings.notices) spdlog::warn("settings: {}", notice);
        const cabinet::Shared shared(std::move(settings), cabinet::api::routes());
        if (!cabinet::panel_version_acceptable(shared.settings)) return 2;
        const std::string conninfo =
            cabinet::with_connection_defaults(shared.settings.database_url, shared.settings.db_connect_timeout_s);
        cabinet::check_statements(conninfo);  // a statement that no longer fits the schema stops here
        shared.live.reload_once(conninfo);  // the owner's stored values before the first request
        const cabinet::ChangeListener change_listener(conninfo, {&shared.catalog, &shared.accounts, &shared.live});
        return cabinet::run_server(shared, opts);
    } catch (const cabinet::ConfigError& e) {
        std::cerr << "cabinet-fcgi: configuration error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "cabinet-fcgi: " << e.what() << "\n";
        return 1;
    }
}
