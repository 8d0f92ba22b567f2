// The owner-level settings (services/owner_settings.hpp; docs/operations.md "Settings").
// Admins only (AuthKind::admin); every change is audited with the admin as actor and
// reaches every process of the pool within a second, no restart.
//   GET    /api/admin/settings          every owner-level setting: value, source, env value,
//                                       help, default, valid, group, secret, is_set (a
//                                       secret's value and env value come back empty)
//   PUT    /api/admin/settings/{name}   {"value": "text as in the env file"}; 422 when the
//                                       setting's parser refuses it (nothing is written)
//   DELETE /api/admin/settings/{name}   back to the env file's value
// Unknown and infrastructure names are 404: those live in the env file only.
#include "api/handlers.hpp"
#include "config/owner_settings.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/owner_settings.hpp"
#include "util/json_fields.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

// A setting's text is at most 4096 bytes (services/owner_settings.cpp); the body cap is
// MAX_BODY_BYTES, so a longer one is refused there with its message.
constexpr size_t kMaxSettingCharacters = 4096;

void write_view(JsonWriter& w, const OwnerSettingView& v) {
    w.StartObject();
    w.Key("name");
    write_string(w, v.name);
    w.Key("value");
    write_string(w, v.value);
    w.Key("source");
    write_string(w, v.source);
    w.Key("env_value");
    write_string(w, v.env_value);
    w.Key("help");
    write_string(w, v.help);
    put_text(w, "default", v.secret ? std::string_view() : std::string_view(v.default_value));
    put_text(w, "valid", v.valid);
    put_text(w, "group", v.group);
    put_bool(w, "secret", v.secret);
    put_bool(w, "is_set", v.is_set);
    w.Key("changed_by");
    if (v.changed_by.empty()) w.Null();
    else write_string(w, v.changed_by);
    w.Key("changed_at");
    if (v.changed_at > 0) write_string(w, iso8601_utc(v.changed_at));
    else w.Null();
    w.EndObject();
}

// An owner-level name or 404; what the services say of a bad value is a 422.
template <typename F>
OwnerSettingView checked(const std::string& name, F&& change) {
    try {
        owner_setting_spec(name);
    } catch (const ConfigError& e) {
        throw not_found(e.what());
    }
    try {
        return change();
    } catch (const ConfigError& e) {
        throw ApiError(422, e.what());
    }
}

}  // namespace

void get_admin_settings(Exchange& ex) {
    const auto views = ex.io.db.read([](auto& txn) { return owner_settings_view(txn, process_environment()); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("items");
    w.StartArray();
    for (const auto& v : views) write_view(w, v);
    w.EndArray();
    w.EndObject();
}

void put_admin_setting(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    const JsonBody body(ex.req);
    const std::string value = require_string(body, "value", 0, kMaxSettingCharacters);
    const std::string by = admin_actor(ex);
    const OwnerSettingView v = checked(name, [&] {
        return ex.io.db.write([&](pqxx::work& txn) { return set_owner_setting(txn, name, value, by, process_environment()); });
    });
    write_view(ex.resp.json(), v);
}

void delete_admin_setting(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    const std::string by = admin_actor(ex);
    const OwnerSettingView v = checked(name, [&] {
        return ex.io.db.write([&](pqxx::work& txn) { return unset_owner_setting(txn, name, by, process_environment()); });
    });
    write_view(ex.resp.json(), v);
}

}  // namespace cabinet::api
