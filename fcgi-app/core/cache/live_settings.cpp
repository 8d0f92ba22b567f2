#include "cache/live_settings.hpp"

#include <spdlog/spdlog.h>

#include "config/owner_settings.hpp"
#include "db/owner_settings_repo.hpp"

namespace cabinet {

LiveSettings::LiveSettings(Settings env)
    : env_(std::move(env)), current_(std::make_shared<const Settings>(env_)) {}

void LiveSettings::reload(pqxx::transaction_base& txn) const {
    const auto stored = stored_owner_values(txn);
    auto next = std::make_shared<const Settings>(with_owner_values(env_, stored));
    // The env file's own notices were logged at start; these are the stored values'.
    for (size_t i = env_.notices.size(); i < next->notices.size(); ++i) spdlog::warn("settings: {}", next->notices[i]);
    {
        std::lock_guard lock(mutex_);
        current_.swap(next);
    }  // the old snapshot goes with `next`, outside the lock, once no request holds it
    spdlog::debug("owner settings loaded: {} stored values", stored.size());
}

void LiveSettings::reload_once(const std::string& conninfo) const {
    try {
        pqxx::connection conn(conninfo);
        pqxx::read_transaction txn(conn);
        reload(txn);
    } catch (const std::exception& e) {
        spdlog::warn("owner settings not read at start, the env file's values apply until the database answers: {}",
                     e.what());
    }
}

}  // namespace cabinet
