#include "user_store.hpp"

#include <algorithm>
#include <stdexcept>

#include "catalog.hpp"

namespace mock {
namespace {

template <class Map, class Key>
auto lookup(const Map& map, const Key& key) -> typename Map::mapped_type {
    auto it = map.find(key);
    return it == map.end() ? nullptr : it->second;
}

}  // namespace

const UserStore::Entry* UserStore::find(std::string_view uuid) const {
    auto it = by_uuid_.find(uuid);
    return it == by_uuid_.end() ? nullptr : &it->second;
}

const UserStore::Entry* UserStore::find_by_short_uuid(std::string_view short_uuid) const {
    return lookup(by_short_uuid_, short_uuid);
}

const UserStore::Entry* UserStore::find_by_username(std::string_view username) const {
    return lookup(by_username_, username);
}

std::vector<const UserStore::Entry*> UserStore::find_by_telegram_id(int64_t telegram_id) const {
    std::vector<const Entry*> out;
    auto [first, last] = by_telegram_id_.equal_range(telegram_id);
    for (auto it = first; it != last; ++it) out.push_back(it->second);
    // The panel answers in creation order.
    std::sort(out.begin(), out.end(), [](const Entry* a, const Entry* b) { return a->user->id < b->user->id; });
    return out;
}

void UserStore::check(const User& u) const {
    const Entry* old = find(u.uuid);
    const auto taken = [&](const Entry* other) { return other && other != old; };
    if (taken(find_by_short_uuid(u.short_uuid))) throw std::invalid_argument("shortUuid " + u.short_uuid + " used twice");
    if (taken(find_by_username(u.username))) throw std::invalid_argument("username " + u.username + " used twice");
    auto same_id = by_id_.find(u.id);
    if (same_id != by_id_.end() && taken(same_id->second))
        throw std::invalid_argument("id " + std::to_string(u.id) + " used twice");
}

void UserStore::put(UserPtr user, uint64_t seq) {
    const User& u = *user;
    check(u);
    if (find(u.uuid)) erase(u.uuid);
    auto [it, added] = by_uuid_.try_emplace(std::string_view(u.uuid), Entry{std::move(user), seq});
    index(*it->second.user);
}

void UserStore::erase(std::string_view uuid) {
    auto it = by_uuid_.find(uuid);
    if (it == by_uuid_.end()) return;
    const UserPtr keep = it->second.user;  // the keys view its strings until they are gone
    unindex(*keep);
    by_uuid_.erase(it);
}

void UserStore::index(const User& u) {
    const Entry* e = &by_uuid_.find(u.uuid)->second;
    by_short_uuid_.emplace(u.short_uuid, e);
    by_username_.emplace(u.username, e);
    if (u.telegram_id) by_telegram_id_.emplace(*u.telegram_id, e);
    by_id_.insert({u.id, e});
    for (const auto& squad : u.active_internal_squads) ++squad_members_[squad];
}

void UserStore::unindex(const User& u) {
    by_short_uuid_.erase(u.short_uuid);
    by_username_.erase(u.username);
    if (u.telegram_id) {
        auto [first, last] = by_telegram_id_.equal_range(*u.telegram_id);
        for (auto it = first; it != last; ++it)
            if (it->second->user.get() == &u) {
                by_telegram_id_.erase(it);
                break;
            }
    }
    by_id_.erase(u.id);
    for (const auto& squad : u.active_internal_squads)
        if (--squad_members_[squad] == 0) squad_members_.erase(squad);
}

std::vector<UserPtr> UserStore::page(size_t start, size_t count) const {
    std::vector<UserPtr> out;
    for (auto it = by_id_.find_by_order(start); it != by_id_.end() && out.size() < count; ++it)
        out.push_back(it->second->user);
    return out;
}

std::vector<UserPtr> UserStore::all() const { return page(0, by_id_.size()); }

std::vector<int64_t> UserStore::squad_members() const {
    std::vector<int64_t> out;
    for (const auto& sq : squads()) {
        auto it = squad_members_.find(std::string(sq.uuid));
        out.push_back(it == squad_members_.end() ? 0 : it->second);
    }
    return out;
}

}  // namespace mock
