// GET /api/cabinet/config: the public theme, so the shell can paint itself before the
// credential check (SPEC-GAPS "GET /config"). Served from the process's catalogue copy (cache/catalog_cache.hpp).
// Beyond SPEC-GAPS: `bot_username`, and `maintenance {active, message}` (the thread's cached state), so the
// mini-app can tell its users why the bot answers with a stub (docs/decisions.md).
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_config(Exchange& ex) {
    const auto catalog = ex.shared.catalog.get(ex.io.db, std::nullopt);
    const ThemeConfig& t = catalog->theme;
    JsonObject o(ex.resp.json());
    write_theme_fields(o, t);
    o.put("published_at", iso8601_utc(t.published_at));
    {
        auto providers = o.array("oauth_providers");  // those whose id and secret are set (Shared, once at start)
        for (const auto& p : ex.shared.oauth_providers) providers.add(p);
    }
    // Additive (issue 49): the bot's @username, for "open in Telegram" before sign-in.
    o.put("bot_username", ex.settings().bot_username);
    const MaintenanceState& m = ex.io.maintenance.get(ex.io.db, ex.settings());
    o.object("maintenance").put("active", m.enabled).put("message", m.enabled ? std::optional(m.message) : std::nullopt);
}

}  // namespace cabinet::api
