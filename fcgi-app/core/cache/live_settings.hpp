#pragma once
// The settings a long-running process works with: the env file's (read once at start) with
// the owner-level values stored in PostgreSQL on top (config/owner_settings.hpp, sql 0030).
// An immutable snapshot, replaced whole when ChangeListener hears `settings_changed` or
// connects again (whatever changed meanwhile is then read); readers take it once per
// request or job, so one request never mixes two versions, and reading costs one shared_ptr
// copy under a mutex held for nothing else: no parsing.
//
// Not std::atomic<std::shared_ptr>: libstdc++ 12's load releases its internal spin lock
// with relaxed order, so a store's write of the pointer is not ordered after a load's read
// of it (ThreadSanitizer reports it, tests/tsan); it locks just the same, only less well.
#include <memory>
#include <mutex>
#include <pqxx/pqxx>
#include <string>

#include "config/settings.hpp"

namespace cabinet {

class LiveSettings {
public:
    explicit LiveSettings(Settings env);
    LiveSettings(const LiveSettings&) = delete;
    LiveSettings& operator=(const LiveSettings&) = delete;

    std::shared_ptr<const Settings> current() const {
        std::lock_guard lock(mutex_);
        return current_;
    }
    // The env file's settings: infrastructure, and the defaults of the owner-level ones.
    const Settings& env() const { return env_; }

    // Reads the stored values and swaps in the new snapshot. Const and thread-safe: it
    // lives in the process's read-only Shared, and the listener's thread calls it.
    void reload(pqxx::transaction_base& txn) const;
    // The same on a connection of its own, at start: a database that cannot be read yet
    // leaves the env values in force (logged) until the listener connects and reloads.
    void reload_once(const std::string& conninfo) const;

private:
    const Settings env_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const Settings> current_;
};

}  // namespace cabinet
