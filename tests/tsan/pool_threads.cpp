// tsan-pool: the pool's thread machinery under ThreadSanitizer (CABINET_TSAN=ON). It runs
// run_fcgi_threads() exactly as cabinet-fcgi does, with what the pool builds once and then
// shares between its threads (settings, the init-data verifier, the JWT codec, the Argon2id
// hasher with its slot semaphore, the router, the logger, the panel-health, catalogue and
// account caches) and what each thread owns (PostgreSQL connection, Redis client); the
// catalogue and account caches are shared and refreshed by the change listener thread on
// NOTIFY (tests/tsan/run sends some). tests/tsan/run drives it with
// concurrent FastCGI requests, then SIGTERM; any race report fails (halt_on_error).
//
//   tsan-pool --listen unix:/path [--threads N]     settings from the environment
#include <fcgiapp.h>
#include <sodium.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <string>

#include "auth/init_data.hpp"
#include "auth/jwt.hpp"
#include "auth/passwords.hpp"
#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "cache/account_cache.hpp"
#include "cache/catalog_cache.hpp"
#include "cache/change_listener.hpp"
#include "db/db.hpp"
#include "errors.hpp"
#include "http/fcgi_io.hpp"
#include "http/fcgi_threads.hpp"
#include "http/router.hpp"
#include "log/logging.hpp"
#include "panel/panel_health_cache.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

void none(Exchange&) {}  // the router's handlers are not called: the route says what to do

std::vector<Route> routes() {
    return {{"GET", "/config", AuthKind::none, none},
            {"GET", "/redis", AuthKind::none, none},
            {"GET", "/panel", AuthKind::none, none},
            {"GET", "/auth", AuthKind::tma_or_jwt, none},
            {"POST", "/password", AuthKind::none, none}};
}

// Stand-ins for the pool's Shared and ThreadResources (app/context), without the panel
// client and the maintenance cache, whose code is not threaded.
struct Shared {
    explicit Shared(Settings s) : settings(std::move(s)) {}
    const Settings settings;
    const InitDataVerifier init_data{settings.bot_token, settings.init_data_max_age_s};
    const JwtCodec jwt{settings.jwt_secret};
    const PasswordHasher passwords{settings.password_opslimit, settings.password_memlimit,
                                   settings.password_hash_concurrency};
    const RedisTarget redis_target = parse_redis_url(settings.redis_url);
    const Router router{routes()};
    // /health/deep's panel probe, shared by the threads; a 1 ms TTL keeps them probing.
    const PanelHealthCache panel_health{1};
    const CatalogCache catalog{settings.app_config_ttl_ms};
    const LiveSettings live{settings};
    // A small budget (a few users a shard), so that threads also evict each other's copies.
    const AccountCache accounts{std::make_unique<AccountGenerations>(settings.account_generations_file), 16 << 10,
                                std::chrono::seconds(300)};
};

// GET /auth with init data as the pool answers a known caller: the account from the cache,
// else "read" (made up here: the repository is not threaded code) and kept.
std::string cached_caller(const Shared& shared, int64_t telegram_id) {
    if (auto a = shared.accounts.account_by_telegram_id(telegram_id)) return "cached " + std::to_string(a->user.id);
    Account a;
    a.user.id = telegram_id % 1000 + 1;
    a.user.telegram_id = telegram_id;
    shared.accounts.keep_account(shared.accounts.ticket_for_telegram_id(telegram_id), a);
    return "loaded " + std::to_string(a.user.id);
}

struct Thread {
    explicit Thread(const Settings& s, const RedisTarget& t)
        : db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms),
          redis(t, s.redis_timeout_ms) {}
    Db db;
    Redis redis;
};

// One request: the shared objects and this thread's resources, as the handlers use them.
std::string answer(const Shared& shared, Thread& io, const Request& req) {
    const RouteMatch m = shared.router.match(req.method, req.path);
    const std::string_view path = m.route->pattern;
    if (path == "/config")  // with the settings snapshot the listener swaps (cache/live_settings)
        return shared.catalog.get(io.db, std::nullopt)->theme.title + shared.live.current()->maintenance_message;
    if (path == "/panel") return shared.panel_health.alive([] { return true; }) ? "up" : "unknown";
    if (path == "/redis") {
        shared.accounts.wrote(100000001 % 1000 + 1);  // as a request that wrote does at its end
        return std::to_string(io.redis.incr_window("tsan:" + req.query, 60).value_or(-1));
    }
    if (path == "/auth") {
        try {
            if (starts_with(req.authorization, "tma "))
                return cached_caller(shared, shared.init_data.verify(req.authorization.substr(4), unix_now()).user.id);
            return std::to_string(shared.jwt.verify(req.authorization.substr(7), unix_now()).user_id);
        } catch (const ApiError& e) {
            return e.detail();
        }
    }
    const std::string hash = shared.passwords.hash(req.body);
    return shared.passwords.verify(hash, req.body) ? "match" : "mismatch";
}

void serve(const Shared& shared, FcgiConnections& conns) {
    Thread io(shared.settings, shared.redis_target);
    FCGX_Request fr;
    FcgiConnections::init(fr);
    while (conns.next(fr)) {
        Request req;
        Response resp;
        try {
            read_request(fr, shared.settings.max_body_bytes, req);
            const std::string out = answer(shared, io, req);
            auto& w = resp.json();
            w.StartObject();
            w.Key("result");
            write_string(w, out);
            w.EndObject();
        } catch (const ApiError& e) {
            resp.reset();
            resp.status = e.status();
        }
        write_response(fr, req, resp);
        conns.finish(fr);
        spdlog::info("{} {} {}", req.request_id, req.path, resp.status);
    }
    FCGX_Free(&fr, 0);
}

}  // namespace
}  // namespace cabinet

int main(int argc, char** argv) {
    cabinet::FcgiOptions opts;
    opts.name = "tsan-pool";
    opts.threads = 8;
    opts.drain_seconds = 5;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string arg = argv[i];
        if (arg == "--listen") opts.listen = argv[i + 1];
        else if (arg == "--threads") opts.threads = std::stoi(argv[i + 1]);
    }
    try {
        if (sodium_init() < 0) throw std::runtime_error("libsodium init failed");
        cabinet::Settings settings = cabinet::load_settings_from_environment();
        cabinet::setup_logging(settings.log_level, opts.name);
        const cabinet::Shared shared(std::move(settings));
        const cabinet::ChangeListener listener(shared.settings.database_url,
                                               {&shared.catalog, &shared.accounts, &shared.live});
        return cabinet::run_fcgi_threads(opts, [&shared](cabinet::FcgiConnections& conns) { cabinet::serve(shared, conns); });
    } catch (const std::exception& e) {
        std::cerr << "tsan-pool: " << e.what() << "\n";
        return 1;
    }
}
