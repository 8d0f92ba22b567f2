#pragma once
// The database side of `cabinetctl sync-panel`: our subscriptions as they were before the
// panel was asked (MirrorSnapshot), and one transaction that writes what the panel said
// about a group of them (write_mirror). No panel call happens under a lock here.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "panel/panel_types.hpp"

namespace cabinet::ctl {

// A subscription linked to a panel user, as read before the panel answered.
struct MirrorRow {
    int64_t user_id = 0;
    std::string panel_uuid;
    bool is_trial = false;
    std::string status;
    int64_t revision = 0;
    int64_t expire_at = 0;  // Unix seconds
    int64_t traffic_limit_bytes = 0;
    int64_t traffic_used_bytes = 0;
    std::optional<int64_t> used_today;  // today's traffic_snapshots figure, if there is one
    std::string panel_mark;  // the write mark of the last committed grant; empty: none
    std::string short_uuid;        // the connection link we hand out, and its id
    std::string subscription_url;
};

// A read-only REPEATABLE READ transaction whose snapshot is taken when it is made: make it
// before asking the panel, read the rows after. A grant that wrote the panel in between
// committed after the snapshot, so the rows show the revision before it and the write
// below finds the revision moved and keeps the grant (as the per-user sync always did by
// reading first). It holds no lock, only a snapshot, while the panel answers.
class MirrorSnapshot {
public:
    explicit MirrorSnapshot(pqxx::connection& conn);

    std::vector<MirrorRow> rows_by_panel_uuid(const std::vector<std::string>& uuids);
    std::optional<MirrorRow> row_of_user(int64_t user_id);
    // The UTC day of the snapshot: today's traffic figure is written for this day.
    const std::string& day() const { return day_; }
    void close() { txn_.commit(); }

private:
    pqxx::transaction<pqxx::repeatable_read, pqxx::read_only> txn_;
    std::string day_;
};

struct MirrorTally {
    int64_t synced = 0;  // in step with the panel now (written, or nothing to write)
    int64_t moved = 0;   // changed by a grant since the snapshot: kept, the next run mirrors it
    // Users whose panel user holds a write that never committed: not copied, for
    // panel_doubt.hpp to settle under their lock.
    std::vector<int64_t> in_doubt;
};

// Mirrors the panel's view (`panel`, by panel uuid) of `rows` in one transaction: locks
// the users that need a write in id order, updates their subscriptions with one statement
// over the revisions read, records the changed expiries and today's traffic figures in
// bulk. Rows whose state and traffic figure already match the panel are not touched, nor
// are rows in doubt (MirrorTally::in_doubt).
MirrorTally write_mirror(pqxx::connection& conn, const std::vector<MirrorRow>& rows, const std::string& day,
                         const std::unordered_map<std::string, const PanelUser*>& panel);

// Subscriptions linked to a panel user with user id above `after`, in id order, at most
// `limit`: (user id, panel uuid).
std::vector<std::pair<int64_t, std::string>> linked_subscriptions_after(pqxx::connection& conn, int64_t after,
                                                                        int64_t limit);

}  // namespace cabinet::ctl
