#include "db/app_config_cache.hpp"

#include <spdlog/spdlog.h>

namespace cabinet {

const ThemeConfig& AppConfigCache::get(Db& db) {
    const auto now = std::chrono::steady_clock::now();
    if (loaded_ && now - loaded_at_ < ttl_) return value_;
    auto load = [&db] {
        return db.read([](pqxx::nontransaction& txn) {
        const auto res = txn.exec_prepared("app_config");
        ThemeConfig t;
        if (res.empty()) return t;  // a migration inserts the row; a missing one shows defaults
        const auto& r = res[0];
        t.template_id = r["template"].c_str();
        t.title = r["title"].c_str();
        t.greeting = r["greeting"].c_str();
        t.accent_color = r["accent_color"].c_str();
        if (!r["mtproto_proxy"].is_null()) t.mtproto_proxy = r["mtproto_proxy"].c_str();
        t.ui_json = r["ui"].c_str();
        t.published_at = r["published_at"].as<int64_t>();
        return t;
        });
    };
    try {
        value_ = load();
    } catch (const std::exception& e) {
        // The theme changes rarely: with the database away, a stale copy beats an error.
        if (!loaded_) throw;
        spdlog::warn("app config reload failed, serving the cached copy: {}", e.what());
    }
    loaded_ = true;
    loaded_at_ = now;
    return value_;
}

}  // namespace cabinet
