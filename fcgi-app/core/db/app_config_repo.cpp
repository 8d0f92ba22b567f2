#include "db/app_config_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

ThemeConfig load_app_config(pqxx::transaction_base& txn) {
    const auto res = exec_prepared(txn, "app_config");
    ThemeConfig t;
    if (res.empty()) return t;
    const auto& r = res[0];
    t.template_id = r["template"].c_str();
    t.title = r["title"].c_str();
    t.greeting = r["greeting"].c_str();
    t.accent_color = r["accent_color"].c_str();
    if (!r["mtproto_proxy"].is_null()) t.mtproto_proxy = r["mtproto_proxy"].c_str();
    t.ui_json = r["ui"].c_str();
    t.published_at = r["published_at"].as<int64_t>();
    return t;
}

}  // namespace cabinet
