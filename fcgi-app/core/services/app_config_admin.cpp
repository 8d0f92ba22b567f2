#include "services/app_config_admin.hpp"

#include <algorithm>
#include <stdexcept>

#include "db/app_config_repo.hpp"
#include "db/catalog_admin_repo.hpp"
#include "domain/app_ui.hpp"
#include "domain/landing.hpp"
#include "errors.hpp"
#include "services/catalog_admin.hpp"
#include "util/json.hpp"

namespace cabinet {
namespace {

constexpr const char* kUiKey = "ui";

AppConfigView set_app_ui(pqxx::work& txn, const std::string& value, const std::string& actor, bool web_cabinet_enabled) {
    std::string clean;
    try {
        clean = clean_app_ui(value);
    } catch (const std::invalid_argument& e) {
        throw ApiError(422, e.what());
    }
    const std::string before = app_ui_without_landing(load_app_config(txn).ui_json);
    set_app_config_ui(txn, clean);
    audit_catalog_change(txn, actor, "config", {"set", kUiKey, clean}, before, clean);
    return app_config_view(txn, web_cabinet_enabled);
}

// {"KEY": "value"}: a text of the app config as the audit log's before or after.
std::string value_json(const std::string& key, const AppConfigView& v) {
    for (const auto& [k, value] : v.values)
        if (k == key) return json_object({{k, value}});
    return {};
}

}  // namespace

AppConfigView app_config_view(pqxx::transaction_base& txn, bool web_cabinet_enabled) {
    const ThemeConfig t = load_app_config(txn);
    const Landing l = landing_from_ui(t.ui_json, web_cabinet_enabled);
    return {{{"template", t.template_id},
             {"title", t.title},
             {"greeting", t.greeting},
             {"accent_color", t.accent_color},
             {"landing.enabled", l.enabled ? "true" : "false"},
             {"landing.headline", l.headline},
             {"landing.subheadline", l.subheadline},
             {"landing.cta_target", l.cta_target},
             {"landing.features", json_text(write_landing_features, l.features)},
             {"landing.faq", json_text(write_landing_faq, l.faq)},
             {"ui", app_ui_without_landing(t.ui_json)}},
            t.published_at};
}

AppConfigView set_app_config_value(pqxx::work& txn, const std::string& key, const std::string& value,
                                   const std::string& actor, bool web_cabinet_enabled) {
    if (key == kUiKey) return set_app_ui(txn, value, actor, web_cabinet_enabled);
    const auto& keys = config_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) throw not_found("no app config key " + key);
    ConfigChange c;
    try {
        c = parse_config_change(key, value);
    } catch (const std::invalid_argument& e) {
        throw ApiError(422, e.what());
    }
    const std::string before = value_json(key, app_config_view(txn, web_cabinet_enabled));
    if (!c.column.empty()) set_app_config_column(txn, c.column, c.value);
    else set_app_config_landing(txn, c.landing_key, c.value);
    AppConfigView after = app_config_view(txn, web_cabinet_enabled);
    audit_catalog_change(txn, actor, "config", {"set", key, value}, before, value_json(key, after));
    return after;
}

AppConfigView app_config_view(Db& db, bool web_cabinet_enabled) {
    return db.read([&](auto& txn) { return app_config_view(txn, web_cabinet_enabled); });
}

AppConfigView set_app_config_value(Db& db, const std::string& key, const std::string& value, const std::string& actor,
                                   bool web_cabinet_enabled) {
    return db.write([&](pqxx::work& txn) { return set_app_config_value(txn, key, value, actor, web_cabinet_enabled); });
}

}  // namespace cabinet
