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
    auto& w = ex.resp.json();
    w.StartObject();
    write_theme_fields(w, t);
    w.Key("published_at");
    write_string(w, iso8601_utc(t.published_at));
    w.Key("oauth_providers");
    w.StartArray();  // the providers whose id and secret are set (Shared, once at start)
    for (const auto& p : ex.shared.oauth_providers) write_string(w, p);
    w.EndArray();
    // Additive (issue 49): the bot's @username, for "open in Telegram" before sign-in.
    w.Key("bot_username");
    write_string(w, ex.settings().bot_username);
    const MaintenanceState& m = ex.io.maintenance.get(ex.io.db, ex.settings());
    w.Key("maintenance");
    w.StartObject();
    w.Key("active");
    w.Bool(m.enabled);
    w.Key("message");
    if (m.enabled) write_string(w, m.message);
    else w.Null();
    w.EndObject();
    w.EndObject();
}

}  // namespace cabinet::api
