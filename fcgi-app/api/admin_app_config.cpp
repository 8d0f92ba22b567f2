// The owner's texts and theme for the admin screen (services/app_config_admin.hpp), the
// same as `cabinetctl config`. Admins only; every change audited with the admin as actor
// and in every pool process's answers within a second.
//   GET /api/admin/app-config         {items: [{name, value}], published_at}: every key
//                                     (title, greeting, template, accent_color, landing.*)
//   PUT /api/admin/app-config/{name}  {"value": "text as cabinetctl config set takes it"}
//                                     (landing.features and landing.faq: a JSON array as
//                                     text); 422 with the reason when refused, 404 for an
//                                     unknown name; answers like the GET
#include "api/handlers.hpp"
#include "http/body.hpp"
#include "http/body_limits.hpp"
#include "services/app_config_admin.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

// What the body may carry (http/body_limits.hpp): the longest value domain/landing.hpp accepts,
// a FAQ of 30 questions with 2,000-character answers, is about 67,000 characters and
// more with its quotes escaped. domain/landing.hpp checks each field's own limit.
constexpr size_t kMaxAppConfigCharacters = kAppConfigBodyBytes;

void write_view(JsonWriter& w, const AppConfigView& v) {
    JsonObject o(w);
    {
        auto items = o.array("items");
        for (const auto& [name, value] : v.values) items.object().put("name", name).put("value", value);
    }
    o.put("published_at", iso8601_utc(v.published_at));
}

}  // namespace

void get_admin_app_config(Exchange& ex) {
    write_view(ex.resp.json(), app_config_view(ex.io.db, ex.settings().web_cabinet_enabled));
}

void put_admin_app_config(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    const JsonBody body(ex.req);
    const std::string value = require_string(body, "value", 0, kMaxAppConfigCharacters);
    const bool web = ex.settings().web_cabinet_enabled;
    write_view(ex.resp.json(), set_app_config_value(ex.io.db, name, value, admin_actor(ex), web));
}

}  // namespace cabinet::api
