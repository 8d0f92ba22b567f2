#pragma once
// A thread's in-memory copy of the owner's theme: read from PostgreSQL at most once per
// APP_CONFIG_TTL_MS, so GET /config and GET /me cost no query for it.
#include <chrono>

#include "db/db.hpp"
#include "domain/app_config.hpp"

namespace cabinet {

class AppConfigCache {
public:
    explicit AppConfigCache(int64_t ttl_ms) : ttl_(std::chrono::milliseconds(ttl_ms)) {}
    const ThemeConfig& get(Db& db);

private:
    std::chrono::steady_clock::duration ttl_;
    std::chrono::steady_clock::time_point loaded_at_{};
    bool loaded_ = false;
    ThemeConfig value_;
};

}  // namespace cabinet
