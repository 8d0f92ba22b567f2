#pragma once
// The two on-disk forms of the panel's state: the snapshot (state.json, format
// "cabinet-mock-panel/1": {format, nextId, users[]}, unchanged so a seeder can write one
// directly) and a change-log line ({nextId, users[], deleted[]}: the new version of each
// user a change touched, the uuids it deleted).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "panel_change.hpp"
#include "user_store.hpp"

namespace mock {

// Writes the snapshot to `path` atomically, a megabyte at a time (a million users make a
// gigabyte); users in creation order. Returns its size.
uint64_t write_snapshot_file(const std::string& path, int64_t next_id, const std::vector<UserPtr>& users);
// Parses a snapshot (`text` is used as scratch space) and hands each user to `add` in
// file order; returns nextId. Throws StateFileError naming the file, and the byte or the
// field at fault.
int64_t decode_snapshot(std::string& text, const std::string& path, const std::function<void(User)>& add);

std::string encode_change(const PanelChange& change);

struct DecodedChange {
    int64_t next_id = 0;
    std::vector<User> users;
    std::vector<std::string> deleted;
};
// Throws ValidationError when `line` is not a change-log line.
DecodedChange decode_change(const std::string& line);

}  // namespace mock
