#include "services/app_config_admin.hpp"

#include <algorithm>
#include <stdexcept>

#include "db/app_config_repo.hpp"
#include "db/catalog_admin_repo.hpp"
#include "domain/landing.hpp"
#include "errors.hpp"
#include "services/catalog_admin.hpp"
#include "util/json.hpp"

namespace cabinet {

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
             {"landing.faq", json_text(write_landing_faq, l.faq)}},
            t.published_at};
}

AppConfigView set_app_config_value(pqxx::work& txn, const std::string& key, const std::string& value,
                                   const std::string& actor, bool web_cabinet_enabled) {
    const auto& keys = config_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) throw not_found("no app config key " + key);
    ConfigChange c;
    try {
        c = parse_config_change(key, value);
    } catch (const std::invalid_argument& e) {
        throw ApiError(422, e.what());
    }
    if (!c.column.empty()) set_app_config_column(txn, c.column, c.value);
    else set_app_config_landing(txn, c.landing_key, c.value);
    audit_catalog_change(txn, actor, "config", {"set", key, value});
    return app_config_view(txn, web_cabinet_enabled);
}

}  // namespace cabinet
