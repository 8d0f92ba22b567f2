#include "panel_change.hpp"

namespace mock {

const User* PanelChange::current(const UserStore::Entry* stored) const {
    if (!stored) return nullptr;
    auto it = touched_.find(stored->user->uuid);
    if (it == touched_.end()) return stored->user.get();
    return it->second ? &*it->second : nullptr;
}

const User* PanelChange::find(std::string_view uuid) const {
    auto it = touched_.find(uuid);
    if (it != touched_.end()) return it->second ? &*it->second : nullptr;
    const auto* stored = store_.find(uuid);
    return stored ? stored->user.get() : nullptr;
}

// A stored match counts only if this change left that field alone; an edited copy may
// match instead. A change touches a handful of users, so the copies are scanned.
const User* PanelChange::find_by_short_uuid(std::string_view short_uuid) const {
    for (const auto& [uuid, u] : touched_)
        if (u && u->short_uuid == short_uuid) return &*u;
    const User* u = current(store_.find_by_short_uuid(short_uuid));
    return u && u->short_uuid == short_uuid ? u : nullptr;
}

const User* PanelChange::find_by_username(std::string_view username) const {
    for (const auto& [uuid, u] : touched_)
        if (u && u->username == username) return &*u;
    const User* u = current(store_.find_by_username(username));
    return u && u->username == username ? u : nullptr;
}

User* PanelChange::edit(std::string_view uuid) {
    auto it = touched_.find(uuid);
    if (it != touched_.end()) return it->second ? &*it->second : nullptr;
    const auto* stored = store_.find(uuid);
    if (!stored) return nullptr;
    auto& slot = touched_[std::string(uuid)];
    slot = *stored->user;
    return &*slot;
}

User& PanelChange::add(User u) {
    const std::string uuid = u.uuid;
    auto& slot = touched_[uuid];
    slot = std::move(u);
    return *slot;
}

void PanelChange::remove(std::string_view uuid) { touched_[std::string(uuid)] = std::nullopt; }

}  // namespace mock
