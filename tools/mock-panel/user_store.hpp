#pragma once
// The users in memory with the indexes the handlers search by, so that no request scans
// them all: uuid, shortUuid, username, Telegram id, position in creation order (the
// panel's ?start= pages) and member counts per squad. Users are immutable once stored: a
// change stores a new version, so a reader or a snapshot keeps the version it took
// without holding any lock. Not thread-safe by itself; PanelState guards it.
#include <cstdint>
#include <ext/pb_ds/assoc_container.hpp>
#include <ext/pb_ds/tree_policy.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "user.hpp"

namespace mock {

using UserPtr = std::shared_ptr<const User>;

class UserStore {
public:
    struct Entry {
        UserPtr user;
        uint64_t seq = 0;  // the change-log line that wrote this version (0: the snapshot)
    };

    const Entry* find(std::string_view uuid) const;
    const Entry* find_by_short_uuid(std::string_view short_uuid) const;
    const Entry* find_by_username(std::string_view username) const;
    std::vector<const Entry*> find_by_telegram_id(int64_t telegram_id) const;

    // Stores `user` as the new version of the user with its uuid (added when new). Throws
    // std::invalid_argument, storing nothing, when it would share a shortUuid, username
    // or id with another user (a damaged state file; handlers check before).
    void put(UserPtr user, uint64_t seq);
    // Throws what put() would, storing nothing.
    void check(const User& u) const;
    void erase(std::string_view uuid);

    size_t size() const { return by_uuid_.size(); }
    // Up to `count` users from position `start` in creation order: O(log n + count).
    std::vector<UserPtr> page(size_t start, size_t count) const;
    // Every user in creation order (a snapshot, or the one report over all users).
    std::vector<UserPtr> all() const;
    // Members of each squad, in the order of squads().
    std::vector<int64_t> squad_members() const;

private:
    void index(const User& u);
    void unindex(const User& u);

    // Keys view strings inside the stored users, which live as long as their entry.
    std::unordered_map<std::string_view, Entry> by_uuid_;
    std::unordered_map<std::string_view, const Entry*> by_short_uuid_, by_username_;
    std::unordered_multimap<int64_t, const Entry*> by_telegram_id_;
    // id -> entry, with positions in O(log n): ids grow with creation, so this is the
    // creation order.
    __gnu_pbds::tree<int64_t, const Entry*, std::less<int64_t>, __gnu_pbds::rb_tree_tag,
                     __gnu_pbds::tree_order_statistics_node_update>
        by_id_;
    std::unordered_map<std::string, int64_t> squad_members_;
};

}  // namespace mock
