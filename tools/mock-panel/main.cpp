// mock-panel: a stand-in for the Remnawave panel API (@remnawave/backend-contract 2.7.2),
// served over FastCGI behind nginx. See docs/mock-panel.md.
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <iostream>

#include "app.hpp"
#include "log/logging.hpp"
#include "server.hpp"
#include "state_file.hpp"
#include "util/strings.hpp"

namespace {

void usage(std::ostream& out) {
    out << "usage: mock-panel [--listen fd:N|unix:/path|host:port] [--threads N] | --compact\n"
           "  --listen   where to accept FastCGI connections (default fd:0, a systemd socket)\n"
           "  --threads  worker threads (default 4)\n"
           "  --compact  fold the change log into the snapshot and exit (with the mock stopped:\n"
           "             what reads the snapshot alone, cabinetctl seed-demo --panel-state,\n"
           "             then sees every user)\n"
           "Settings from the environment: MOCK_PANEL_STATE (state snapshot, its change log\n"
           "beside it with .changes appended; default "
           "./mock-panel-state.json), MOCK_PANEL_PUBLIC_URL (base of subscription links,\n"
           "default http://127.0.0.1:3010), LOG_LEVEL (default info).\n";
}

}  // namespace

int main(int argc, char** argv) {
    mock::ServerOptions opts;
    opts.name = "mock-panel";
    opts.drain_seconds = 5;  // an injected delay should not hold a restart for long
    bool compact_only = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--compact") {
            compact_only = true;
        } else if ((arg == "--listen" || arg == "--threads") && i + 1 < argc) {
            const std::string value = argv[++i];
            if (arg == "--listen") {
                opts.listen = value;
            } else {
                int64_t n = 0;
                if (!cabinet::parse_int64(value, n) || n < 1 || n > 256) {
                    std::cerr << "mock-panel: --threads must be 1..256\n";
                    return 2;
                }
                opts.threads = static_cast<int>(n);
            }
        } else if (arg == "--help" || arg == "-h") {
            usage(std::cout);
            return 0;
        } else {
            usage(std::cerr);
            return 2;
        }
    }
    try {
        if (sodium_init() < 0) throw std::runtime_error("libsodium init failed");  // ids come from its CSPRNG
        mock::Settings settings = mock::load_settings();
        cabinet::setup_logging(settings.log_level, "mock-panel");
        const std::string state_path = settings.state_path;
        mock::App app(std::move(settings));  // loading folds a change log into the snapshot
        spdlog::info("state file {}", state_path);
        if (compact_only) return 0;
        return mock::run_server(app, opts);
    } catch (const mock::SettingsError& e) {
        std::cerr << "mock-panel: configuration error: " << e.what() << "\n";
        return 2;
    } catch (const mock::StateFileError& e) {
        std::cerr << "mock-panel: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "mock-panel: " << e.what() << "\n";
        return 1;
    }
}
