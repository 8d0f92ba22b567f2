#pragma once
// The shop's catalogue in the process's memory: app config, active plans, constructor price
// list and the sales not over yet. GET /me, /config, /plans, /constructor and the public
// pages answer from it, so their only statement is the caller's account (or none).
//
// Fresh by two means (sql 0020, docs/decisions.md "The catalogue in memory"):
// - an authenticated request passes the catalogue version its account statement read; a
//   copy of another version is reloaded first. So no request sees a catalogue older than a
//   change acknowledged before the request began, whatever the notifications do;
// - NOTIFY catalog_changed (CatalogListener) marks the copy stale for every request, the
//   public ones included (a restore can bring back a number a copy already holds; the
//   listener's reconnection marks it too); while the listener is not connected the public
//   endpoints fall back to a reload every `fallback_ttl`.
// A purchase prices from it only when the copy is provably what its locked read would see
// (`exact_copy`); otherwise from the database, under its lock.
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "db/db.hpp"
#include "domain/app_config.hpp"
#include "domain/catalog.hpp"

namespace cabinet {

struct Catalog {
    int64_t version = 0;
    ThemeConfig theme;
    std::vector<Plan> plans;
    ConstructorPriceList constructor;
    std::vector<Sale> sales;  // not over at load time
};

class CatalogCache {
public:
    explicit CatalogCache(int64_t fallback_ttl_ms) : fallback_ttl_(std::chrono::milliseconds(fallback_ttl_ms)) {}
    CatalogCache(const CatalogCache&) = delete;
    CatalogCache& operator=(const CatalogCache&) = delete;

    // The catalogue for a request. `seen_version`: what the caller's account statement read
    // (authenticated requests); nullopt for public ones. Loads through `db` (the calling
    // thread's connection) when the copy does not do. A public request gets the last copy
    // when the database cannot be read; an authenticated one gets it only when its version
    // is the one held, else the error.
    // Const and thread-safe: it lives in the process's read-only Shared.
    std::shared_ptr<const Catalog> get(Db& db, std::optional<int64_t> seen_version) const;

    // The held copy when it is exactly catalogue `version` (the one a writer read under its
    // lock) and nothing has been notified since it was loaded, while listening; else null.
    // Never loads: a writer inside its transaction then reads the database itself.
    std::shared_ptr<const Catalog> exact_copy(int64_t version) const;

    // A change was notified: the next read reloads.
    void invalidate() const;
    // The listener's connection is up (true) or lost (false); either way what happened
    // meanwhile is unknown, so the copy is marked stale too.
    void set_listening(bool listening) const;

private:
    bool fresh_for(const Catalog& c, std::optional<int64_t> seen_version) const;  // mutex_ held

    const std::chrono::steady_clock::duration fallback_ttl_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const Catalog> value_;
    mutable std::chrono::steady_clock::time_point loaded_at_{};
    mutable uint64_t changes_ = 0;          // notifications and listener transitions so far
    mutable uint64_t loaded_at_change_ = 0;  // changes_ when the held copy's load began
    mutable bool listening_ = false;
};

// One read of the whole catalogue; the version first, so the data is at least that new.
Catalog load_catalog(pqxx::transaction_base& txn);

}  // namespace cabinet
