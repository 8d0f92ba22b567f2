#pragma once
// One change of the panel's state as a handler makes it: it reads through to the stored
// users and edits copies of the few it touches, so nothing stored moves until the change
// is written to the change log (PanelState::change). A handler that throws half-way
// leaves no trace.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "user_store.hpp"

namespace mock {

class PanelChange {
public:
    PanelChange(const UserStore& store, int64_t next_id) : store_(store), next_id_(next_id) {}

    // The user as this change sees it (its own edits included); nullptr when there is none.
    const User* find(std::string_view uuid) const;
    const User* find_by_short_uuid(std::string_view short_uuid) const;
    const User* find_by_username(std::string_view username) const;

    // A copy of the user to edit, kept by this change; nullptr when there is none.
    User* edit(std::string_view uuid);
    // The panel's next numeric user id.
    int64_t take_id() { return next_id_++; }
    User& add(User u);
    void remove(std::string_view uuid);

    // What PanelState writes and applies: uuid -> the user's new version, or nullopt when
    // deleted.
    using Touched = std::map<std::string, std::optional<User>, std::less<>>;
    const Touched& touched() const { return touched_; }
    Touched& touched() { return touched_; }
    int64_t next_id() const { return next_id_; }

private:
    // The change's own version when it touched the user, else the stored one.
    const User* current(const UserStore::Entry* stored) const;

    const UserStore& store_;
    int64_t next_id_;
    Touched touched_;
};

}  // namespace mock
