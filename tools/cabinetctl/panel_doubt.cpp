#include "panel_doubt.hpp"

#include <spdlog/spdlog.h>

#include "db/accounts_repo.hpp"
#include "db/lock_wait.hpp"
#include "panel/panel_mark.hpp"
#include "services/panel_restore.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {

bool settle_doubt(pqxx::connection& conn, PanelClient& panel, int64_t user_id) {
    pqxx::work txn(conn);
    try {
        if (txn.exec_params("SELECT 1 FROM users WHERE id = $1", user_id).empty()) return false;  // merged away
        const LockedAccount locked = lock_account(txn, user_id);
        const auto& sub = locked.subscription;
        if (!sub || sub->panel_uuid.empty()) return false;  // unlinked since the page was read
        const std::string stored =
            txn.exec_params1("SELECT coalesce(panel_mark, '') FROM subscriptions WHERE user_id = $1", user_id)[0].c_str();
        // Under the lock: no grant of ours writes this panel user until we commit.
        const auto now = panel.get_user(sub->panel_uuid);
        if (!now) return false;
        const std::string_view claimed = panel_mark_of(now->description);
        if (claimed.empty() || claimed == stored) return false;
        put_panel_back(panel, locked);
        txn.commit();
        spdlog::warn("user {}: panel user {} held a write that never committed here (expiry {}, ours {}): put back",
                     user_id, now->uuid, iso8601_utc(now->expire_at), iso8601_utc(sub->expire_at));
        return true;
    } catch (const pqxx::sql_error& e) {
        if (!lock_wait_ended(e)) throw;
        spdlog::warn("user {}: locked past the statement timeout; the panel write in doubt is left to the next run",
                     user_id);
        return false;
    }
}

bool settle_orphan(pqxx::connection& conn, PanelClient& panel, const PanelUser& seen) {
    const auto user_id = panel_user_of(seen.description);
    if (!user_id) return false;
    pqxx::work txn(conn);
    try {
        // A grant of this user in flight holds this lock until it has linked its panel user.
        if (!txn.exec_params("SELECT 1 FROM users WHERE id = $1", *user_id).empty()) lock_account(txn, *user_id);
        if (!txn.exec_params("SELECT 1 FROM subscriptions WHERE panel_uuid = $1::uuid", seen.uuid).empty())
            return false;  // linked since the page was read
        const auto now = panel.get_user(seen.uuid);
        if (!now || panel_mark_of(now->description).empty()) return false;
        panel.disable_user(seen.uuid, panel_description(*user_id));
        txn.commit();
        spdlog::warn("user {}: panel user {} was made by a grant that never committed here (expiry {}): disabled",
                     *user_id, seen.uuid, iso8601_utc(now->expire_at));
        return true;
    } catch (const pqxx::sql_error& e) {
        if (!lock_wait_ended(e)) throw;
        spdlog::warn("user {}: locked past the statement timeout; unlinked panel user {} is left to the next run",
                     *user_id, seen.uuid);
        return false;
    }
}

}  // namespace cabinet::ctl
