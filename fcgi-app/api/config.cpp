// GET /api/cabinet/config: the public theme, so the shell can paint itself before the
// credential check (SPEC-GAPS "GET /config"). Served from the thread's memory copy.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_config(Exchange& ex) {
    const ThemeConfig& t = ex.io.app_config.get(ex.io.db);
    auto& w = ex.resp.json();
    w.StartObject();
    write_theme_fields(w, t);
    w.Key("published_at");
    write_string(w, iso8601_utc(t.published_at));
    w.Key("oauth_providers");
    w.StartArray();  // the providers whose id and secret are set (Shared, once at start)
    for (const auto& p : ex.shared.oauth_providers) write_string(w, p);
    w.EndArray();
    w.EndObject();
}

}  // namespace cabinet::api
