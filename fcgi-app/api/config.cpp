// GET /api/cabinet/config: the public theme, so the shell can paint itself before the
// credential check (SPEC-GAPS "GET /config"). Served from the thread's memory copy.
#include "api/handlers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_config(Exchange& ex) {
    const ThemeConfig& t = ex.io.app_config.get(ex.io.db);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("template");
    write_string(w, t.template_id);
    w.Key("title");
    write_string(w, t.title);
    w.Key("greeting");
    write_string(w, t.greeting);
    w.Key("accent_color");
    write_string(w, t.accent_color);
    w.Key("published_at");
    write_string(w, iso8601_utc(t.published_at));
    w.Key("oauth_providers");
    w.StartArray();  // filled once OAuth login exists (web cabinet issue)
    w.EndArray();
    w.EndObject();
}

}  // namespace cabinet::api
