// The owner-level settings (services/owner_settings.hpp; docs/operations.md "Settings").
// Owners change, owners and viewers read (routes.cpp); every change is audited with the
// owner as actor and reaches every process of the pool within a second, no restart.
//   GET    /api/admin/settings          every owner-level setting: value, source, env value,
//                                       help, default, valid, group, secret, is_set (a
//                                       secret's value and env value come back empty)
//   PUT    /api/admin/settings/{name}   {"value": "text as in the env file"}; 422 when the
//                                       setting's parser refuses it (nothing is written)
//   DELETE /api/admin/settings/{name}   back to the env file's value
// Unknown and infrastructure names are 404: those live in the env file only.
#include "api/handlers.hpp"
#include "http/body.hpp"
#include "services/owner_settings.hpp"

namespace cabinet::api {
namespace {

// A setting's text is at most 4096 bytes (services/owner_settings.cpp); the body cap is
// MAX_BODY_BYTES, so a longer one is refused there with its message.
constexpr size_t kMaxSettingCharacters = 4096;

void write_view(JsonWriter& w, const OwnerSettingView& v) {
    JsonObject o(w);
    o.put("name", v.name).put("value", v.value).put("source", v.source).put("env_value", v.env_value);
    o.put("help", v.help);
    o.put("default", v.secret ? std::string_view() : std::string_view(v.default_value));
    o.put("valid", v.valid).put("group", v.group).put("secret", v.secret).put("is_set", v.is_set);
    o.put("changed_by", v.changed_by.empty() ? std::nullopt : std::optional(v.changed_by));
    o.time("changed_at", v.changed_at);
}

}  // namespace

void get_admin_settings(Exchange& ex) {
    const auto views = owner_settings_view(ex.io.db);
    JsonObject o(ex.resp.json());
    auto items = o.array("items");
    for (const auto& v : views) write_view(items.writer(), v);
}

void put_admin_setting(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    const JsonBody body(ex.req);
    const std::string value = require_string(body, "value", 0, kMaxSettingCharacters);
    write_view(ex.resp.json(), set_owner_setting(ex.io.db, name, value, admin_actor(ex)));
}

void delete_admin_setting(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    write_view(ex.resp.json(), unset_owner_setting(ex.io.db, name, admin_actor(ex)));
}

}  // namespace cabinet::api
