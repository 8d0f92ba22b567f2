#pragma once
// What a handler works with. `Shared` is built once at start-up and read-only afterwards;
// `ThreadResources` belongs to one pool thread (its connections and caches); `Exchange`
// is one request in flight.
#include <memory>
#include <optional>

#include "auth/init_data.hpp"
#include "auth/jwt.hpp"
#include "auth/passwords.hpp"
#include "cache/account_cache.hpp"
#include "cache/catalog_cache.hpp"
#include "cache/live_settings.hpp"
#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/account.hpp"
#include "http/request.hpp"
#include "http/response.hpp"
#include "http/router.hpp"
#include "metrics/pool_metrics.hpp"
#include "panel/panel_client.hpp"
#include "panel/panel_health_cache.hpp"
#include "services/maintenance.hpp"

namespace cabinet {

struct Shared {
    explicit Shared(Settings s, std::vector<Route> routes);
    // The env file's settings, read once at start: what the members below are built from.
    // Handlers read ex.settings() instead, which has the owner's stored values on top.
    const Settings settings;
    // The effective settings, a snapshot swapped by ChangeListener on `settings_changed`.
    const LiveSettings live;
    const InitDataVerifier init_data;
    const JwtCodec jwt;
    const PasswordHasher passwords;  // caps concurrent Argon2id runs of this process
    const RedisTarget redis_target;
    const Router router;
    // GET /config's oauth_providers: settings are immutable, so worked out once here.
    const std::vector<std::string> oauth_providers;
    // GET /health/deep's panel state, one probe per process per few seconds.
    const PanelHealthCache panel_health;
    // The catalogue (theme, plans, constructor, sales) shared by the process's threads,
    // kept fresh by the account statement's version and ChangeListener.
    const CatalogCache catalog;
    // Panel requests in flight in this process (PANEL_CONCURRENCY), shared by the threads.
    const CallSlots panel_slots;
    // Payment gateway requests in flight in this process, GATEWAY_CONCURRENCY of each kind:
    // a webhook storm verifies on that many threads at once and answers the rest 503 busy,
    // while checkouts keep slots of their own, so notifications (a stranger's included)
    // never use up what a buyer's payment page needs, nor the other way round.
    const CallSlots notification_slots;
    const CallSlots checkout_slots;
    // This process's block of the host's metrics file (METRICS_FILE); null when the file
    // could not be used (said once at start): then /metrics answers 503.
    const std::unique_ptr<const metrics::PoolMetrics> metrics;
    // Recently used accounts, fresh by the host's generations and ChangeListener;
    // counted in `metrics` (declared first: it is made first).
    const AccountCache accounts;
};

struct ThreadResources {
    // With `metrics`, the thread's statements, Redis commands and panel calls are counted.
    ThreadResources(const Settings& s, const RedisTarget& redis_target, const CallSlots& panel_slots,
                    const metrics::PoolMetrics* metrics = nullptr);
    Db db;
    Redis redis;
    MaintenanceCache maintenance;
    PanelClient panel;
};

struct Exchange {
    const Shared& shared;
    ThreadResources& io;
    Request& req;
    Response& resp;
    std::optional<Account> account;  // set by authentication for non-public routes
    bool web_session = false;         // authenticated by a web-cabinet Bearer token, not init data
    StaffRole staff_role = StaffRole::none;  // the caller's role on the owner's cabinet's routes
    std::string session_id{};         // that token's session (refresh family); empty for init data
    // What dispatch found, for the metrics and the request's log line: the route, or a
    // CORS preflight; neither when the path or method matched nothing.
    const Route* route = nullptr;
    bool preflight = false;

    // The settings in force for this request: the snapshot taken when it began (env file
    // plus the owner's stored values), the same for the whole request.
    const Settings& settings() const { return *settings_snapshot; }
    // The authenticated caller; only valid in handlers of authenticated routes.
    Account& caller() { return *account; }
    // Whether the request's transactions may have written: then the caller's copies in
    // every process of the host are forgotten before the answer leaves (app/dispatch.cpp).
    uint64_t commits_before = 0;
    std::shared_ptr<const Settings> settings_snapshot = shared.live.current();
};

}  // namespace cabinet
