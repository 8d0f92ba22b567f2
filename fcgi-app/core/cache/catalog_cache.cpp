#include "cache/catalog_cache.hpp"

#include <spdlog/spdlog.h>

#include "db/app_config_repo.hpp"
#include "db/catalog_repo.hpp"

namespace cabinet {

Catalog load_catalog(pqxx::transaction_base& txn) {
    Catalog c;
    c.version = catalog_version(txn);
    c.theme = load_app_config(txn);
    c.plans = active_plans(txn);
    c.constructor = constructor_price_list(txn);
    c.sales = pending_sales(txn);
    return c;
}

bool CatalogCache::fresh_for(const Catalog& c, std::optional<int64_t> seen_version) const {
    // Anything notified since the load (a change, the listener lost or regained) makes the
    // copy stale for every request: one number does not tell two databases apart (a restore
    // that counts up again to the number held), and a reload re-arms `exact_copy` for the
    // purchases, which never load.
    if (loaded_at_change_ != changes_) return false;
    // The version an authenticated request read is exact about what committed before it.
    if (seen_version) return c.version == *seen_version;
    return listening_ || std::chrono::steady_clock::now() - loaded_at_ < fallback_ttl_;
}

std::shared_ptr<const Catalog> CatalogCache::get(Db& db, std::optional<int64_t> seen_version) const {
    std::shared_ptr<const Catalog> held;
    uint64_t change_before_load = 0;
    {
        std::lock_guard lock(mutex_);
        held = value_;
        if (held && fresh_for(*held, seen_version)) return held;
        change_before_load = changes_;
    }
    // Loaded outside the mutex: other threads keep answering from the held copy meanwhile.
    std::shared_ptr<const Catalog> loaded;
    try {
        loaded = std::make_shared<const Catalog>(db.read([](pqxx::nontransaction& txn) { return load_catalog(txn); }));
    } catch (const std::exception& e) {
        // A copy of another version than the request's account read would be older than
        // what that request must see: the error then. Of the same version, or for a public
        // page, the copy held is the best there is.
        if (!held || (seen_version && held->version != *seen_version)) throw;
        spdlog::warn("catalogue reload failed, serving the copy of version {}: {}", held->version, e.what());
        return held;
    }
    // The latest load wins, even of a lower version: a restored database counts from an
    // older number. Two loads racing may leave the older copy; the next request whose
    // version differs reloads it, so that heals by itself.
    std::lock_guard lock(mutex_);
    value_ = loaded;
    loaded_at_ = std::chrono::steady_clock::now();
    loaded_at_change_ = change_before_load;
    return loaded;
}

std::shared_ptr<const Catalog> CatalogCache::exact_copy(int64_t version) const {
    // Why this is exact: a copy labelled v holds data at least v (the version is read first)
    // and at most what had committed when it was loaded, which the later locked read sees
    // too; so if that read says v, the copy is v. The other conditions keep out a database
    // whose counter went back (a restore), whose changes arrive as notifications.
    std::lock_guard lock(mutex_);
    if (!value_ || value_->version != version || !listening_ || loaded_at_change_ != changes_) return nullptr;
    return value_;
}

void CatalogCache::invalidate() const {
    std::lock_guard lock(mutex_);
    ++changes_;
}

void CatalogCache::set_listening(bool listening) const {
    std::lock_guard lock(mutex_);
    listening_ = listening;
    ++changes_;
}

}  // namespace cabinet
