#include "app/context.hpp"

#include <spdlog/spdlog.h>

namespace cabinet {
namespace {
// How long /health/deep reuses one panel probe: monitors ask every 10-60 s, so they still
// see a change at once, and a flood costs at most one panel call per process per 5 s.
constexpr int64_t kPanelHealthTtlMs = 5000;

// Without the host's generations file a copy could outlive a write made in another process:
// then the cache stays off (said once at start), and every request reads the database.
std::unique_ptr<AccountGenerations> open_generations(const Settings& s) {
    if (s.account_cache_mb == 0) return nullptr;
    try {
        return std::make_unique<AccountGenerations>(s.account_generations_file);
    } catch (const std::exception& e) {
        spdlog::error("account cache off: {}", e.what());
        return nullptr;
    }
}

// Without the metrics file the pool still serves; only /metrics is missing (503).
std::unique_ptr<const metrics::PoolMetrics> open_metrics(const Settings& s, const Router& router) {
    std::vector<metrics::RouteName> names;
    for (const auto& r : router.routes()) names.push_back({std::string(r.method), std::string(r.pattern)});
    try {
        return std::make_unique<const metrics::PoolMetrics>(s.metrics_file, std::move(names));
    } catch (const std::exception& e) {
        spdlog::error("metrics off: {}", e.what());
        return nullptr;
    }
}
}  // namespace

Shared::Shared(Settings s, std::vector<Route> routes)
    : settings(std::move(s)),
      live(settings),
      init_data(settings.bot_token, settings.init_data_max_age_s),
      jwt(settings.jwt_secret),
      passwords(settings.password_opslimit, settings.password_memlimit, settings.password_hash_concurrency),
      redis_target(parse_redis_url(settings.redis_url)),
      router(std::move(routes)),
      oauth_providers(enabled_oauth_providers(settings)),
      panel_health(kPanelHealthTtlMs),
      catalog(settings.app_config_ttl_ms),
      panel_slots(settings.panel_concurrency, settings.panel_queue_wait_ms),
      notification_slots(settings.gateway_concurrency, settings.gateway_queue_wait_ms),
      checkout_slots(settings.gateway_concurrency, settings.gateway_queue_wait_ms),
      metrics(open_metrics(settings, router)),
      accounts(open_generations(settings), static_cast<size_t>(settings.account_cache_mb) << 20,
               std::chrono::seconds(settings.account_cache_max_age_s),
               metrics ? metrics->account_cache() : metrics::CacheCounters{}) {}

ThreadResources::ThreadResources(const Settings& s, const RedisTarget& redis_target, const CallSlots& panel_slots,
                                 const metrics::PoolMetrics* metrics)
    : db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms),
      redis(redis_target, s.redis_timeout_ms),
      maintenance(s.maintenance_cache_ttl_ms),
      panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms, &panel_slots) {
    if (!metrics) return;
    db.count_into(metrics->db(), metrics->db_connect_failures());
    redis.count_into(metrics->redis());
    panel.count_into(metrics->panel(), metrics->panel_busy());
}

}  // namespace cabinet
