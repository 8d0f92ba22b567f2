#include "db/app_config_cache.hpp"

#include <spdlog/spdlog.h>

#include "db/app_config_repo.hpp"

namespace cabinet {

const ThemeConfig& AppConfigCache::get(Db& db) {
    const auto now = std::chrono::steady_clock::now();
    if (loaded_ && now - loaded_at_ < ttl_) return value_;
    auto load = [&db] { return db.read([](pqxx::nontransaction& txn) { return load_app_config(txn); }); };
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
