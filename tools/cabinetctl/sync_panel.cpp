// cabinetctl sync-panel: mirror the panel's view of every subscription (usage, expiry,
// status, limit) into PostgreSQL, and record today's usage for the traffic chart.
// The panel enforces limits and expiry; this keeps what the cabinet shows in step.
//
// It reads the panel's user list a page at a time (GET /api/users?start=&size=, the
// contract's largest page: 1000) and writes each page in one transaction (panel_mirror.hpp),
// so a million subscriptions cost a thousand panel calls and transactions, not a million.
// A subscription whose panel user was on no page (deleted meanwhile, the list shifted under
// a deletion, or linked after its page went by) is then asked for by uuid, as the per-user
// sync did: only a 404 there counts it missing.
//
// A panel user holding a write that never committed here (panel/panel_mark.hpp) is not
// copied but put back as PostgreSQL has it; one that a first grant made but never linked is
// disabled (panel_doubt.hpp). Both count as "put back". --user-id looks at the user's
// linked panel user only.
#include <pqxx/pqxx>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <unordered_set>

#include "commands.hpp"
#include "db/db.hpp"
#include "log/logging.hpp"
#include "panel/panel_client.hpp"
#include "panel/panel_mark.hpp"
#include "panel_doubt.hpp"
#include "panel_mirror.hpp"
#include "sync_user.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {
namespace {

// A page of a thousand users may take the panel longer than one user's answer.
constexpr int64_t kMinPageTimeoutMs = 30000;

struct Totals {
    int64_t synced = 0, missing = 0, moved = 0, put_back = 0, pages = 0, asked_one_by_one = 0;
};

// Mirrors a group of rows, then settles those whose panel user holds a write in doubt.
void mirror(pqxx::connection& conn, PanelClient& panel, const std::vector<MirrorRow>& rows, const std::string& day,
            const std::unordered_map<std::string, const PanelUser*>& by_uuid, Totals& totals) {
    const MirrorTally t = write_mirror(conn, rows, day, by_uuid);
    totals.synced += t.synced;
    totals.moved += t.moved;
    for (const int64_t user_id : t.in_doubt) {
        if (settle_doubt(conn, panel, user_id))
            ++totals.put_back;
        else
            ++totals.moved;  // committed meanwhile, or left to the next run
    }
}

// The page's panel users that name a write mark but were linked to no subscription when
// the page was read: made by a first grant that never committed (panel_doubt.hpp).
void settle_orphans(pqxx::connection& conn, PanelClient& panel, const std::vector<MirrorRow>& rows,
                    const std::unordered_map<std::string, const PanelUser*>& by_uuid, Totals& totals) {
    std::unordered_set<std::string> linked;
    for (const auto& r : rows) linked.insert(r.panel_uuid);
    for (const auto& [uuid, pu] : by_uuid)
        if (!linked.count(uuid) && !panel_mark_of(pu->description).empty() && settle_orphan(conn, panel, *pu))
            ++totals.put_back;
}

bool is_uuid(const std::string& s) {
    return s.size() == 36 && s.find_first_not_of("0123456789abcdef-") == std::string::npos;
}

// One user's subscription, asked for by uuid: --user-id, and the subscriptions no page held.
void sync_one(pqxx::connection& conn, PanelClient& panel, int64_t user_id, Totals& totals) {
    MirrorSnapshot snap(conn);  // before the panel call (see MirrorSnapshot)
    const auto row = snap.row_of_user(user_id);
    if (!row) return;  // unlinked meanwhile
    const auto pu = panel.get_user(row->panel_uuid);  // a panel outage aborts the run: cron retries
    snap.close();
    if (!pu) {
        spdlog::warn("user {}: panel user {} is gone", user_id, row->panel_uuid);
        ++totals.missing;
        return;
    }
    mirror(conn, panel, {*row}, snap.day(), {{row->panel_uuid, &*pu}}, totals);
}

// Every page of the panel's user list; the user ids of the subscriptions found on them.
std::vector<int64_t> sync_pages(pqxx::connection& conn, PanelClient& panel, int64_t page_size, Totals& totals) {
    std::vector<int64_t> seen;
    for (int64_t start = 0;;) {
        MirrorSnapshot snap(conn);  // before the panel call (see MirrorSnapshot)
        const PanelUserPage page = panel.list_users(start, page_size);
        if (page.users.empty()) break;
        ++totals.pages;
        std::unordered_map<std::string, const PanelUser*> by_uuid;
        std::vector<std::string> uuids;
        for (const auto& u : page.users) {
            std::string uuid = to_lower(u.uuid);
            if (!is_uuid(uuid)) continue;  // not one we could have linked
            by_uuid.emplace(uuid, &u);
            uuids.push_back(std::move(uuid));
        }
        const auto rows = snap.rows_by_panel_uuid(uuids);
        snap.close();
        for (const auto& r : rows) seen.push_back(r.user_id);
        mirror(conn, panel, rows, snap.day(), by_uuid, totals);
        settle_orphans(conn, panel, rows, by_uuid, totals);
        start += static_cast<int64_t>(page.users.size());
        if (start >= page.total) break;
    }
    std::sort(seen.begin(), seen.end());
    return seen;
}

// The linked subscriptions that no page held, one by one.
void sync_unseen(pqxx::connection& conn, PanelClient& panel, const std::vector<int64_t>& seen, int64_t batch,
                 Totals& totals) {
    for (int64_t after = 0;;) {
        const auto linked = linked_subscriptions_after(conn, after, batch);
        if (linked.empty()) break;
        for (const auto& [user_id, uuid] : linked) {
            after = user_id;
            if (std::binary_search(seen.begin(), seen.end(), user_id)) continue;
            ++totals.asked_one_by_one;
            sync_one(conn, panel, user_id, totals);
        }
    }
}

}  // namespace

std::string sync_user_now(const Settings& s, int64_t user_id) {
    pqxx::connection conn(s.database_url);
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
    Totals t;
    sync_one(conn, panel, user_id, t);
    if (t.put_back) return "put back on the panel as PostgreSQL has it";
    if (t.moved) return "changed by a grant meanwhile; the next sync mirrors it";
    if (t.missing) return "the panel user is gone";
    return t.synced ? "in step with the panel" : "no subscription on the panel";
}

int sync_panel(const Args& args) {
    const Settings s = load_or_die();
    setup_logging(s.log_level, "cabinet-sync", s.log_format);
    int64_t batch = kMaxPanelPageSize;
    if (!parse_int64(option(args, "--batch", std::to_string(kMaxPanelPageSize)), batch) || batch < 1 || batch > 10000)
        throw std::runtime_error("--batch must be 1..10000");
    int64_t only_user = 0;  // 0: every subscription
    if (!option(args, "--user-id").empty() && (!parse_int64(option(args, "--user-id"), only_user) || only_user <= 0))
        throw std::runtime_error("--user-id must be a user id");
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms,
                      std::max(s.panel_timeout_ms, kMinPageTimeoutMs));
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    pqxx::connection& conn = db.conn();

    Totals t;
    if (only_user) {
        sync_one(conn, panel, only_user, t);
    } else {
        const auto seen = sync_pages(conn, panel, std::min(batch, kMaxPanelPageSize), t);
        sync_unseen(conn, panel, seen, batch, t);
    }
    spdlog::info("panel sync: {} subscriptions synced, {} missing on the panel, {} changed meanwhile (next run),"
                 " {} panel users put back (a write that never committed); {} pages, {} asked for one by one",
                 t.synced, t.missing, t.moved, t.put_back, t.pages, t.asked_one_by_one);
    std::cout << "synced " << t.synced << ", missing " << t.missing << ", changed meanwhile " << t.moved
              << ", put back " << t.put_back << "\n";
    return 0;
}

}  // namespace cabinet::ctl
