#include "panel_mirror.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

#include "db/lock_wait.hpp"
#include "db/pg_array.hpp"
#include "panel/panel_mark.hpp"

namespace cabinet::ctl {
namespace {

// Panel status -> our status (docs/decisions.md "Subscription states"); a pending
// subscription (paid, not yet fulfilled) stays pending whatever the panel says.
std::string local_status(const MirrorRow& r, const std::string& panel_status) {
    if (r.status == "pending") return "pending";
    if (panel_status == "LIMITED") return "limited";
    if (panel_status == "EXPIRED") return "expired";
    if (panel_status == "DISABLED") return "disabled";
    return r.is_trial ? "trial" : "active";
}

// One row that needs a write, and what the panel says it should be.
struct Change {
    const MirrorRow* row;
    const PanelUser* panel;
    std::string status;
    bool state = false;   // the subscription's mirrored columns differ
    bool figure = false;  // today's traffic figure is missing or differs
};

constexpr const char* kRowSelect =
    "SELECT s.user_id, s.panel_uuid::text, s.is_trial, s.status, s.revision,"
    " floor(extract(epoch FROM s.expire_at))::bigint, s.traffic_limit_bytes, s.traffic_used_bytes, t.used_bytes,"
    " coalesce(s.panel_mark, ''), coalesce(s.short_uuid, ''), coalesce(s.subscription_url, '')"
    " FROM subscriptions s LEFT JOIN traffic_snapshots t ON t.user_id = s.user_id AND t.day = $1::date ";

std::vector<MirrorRow> rows_of(const pqxx::result& result) {
    std::vector<MirrorRow> rows;
    rows.reserve(result.size());
    for (const auto& r : result) {
        MirrorRow m;
        m.user_id = r[0].as<int64_t>();
        m.panel_uuid = r[1].c_str();
        m.is_trial = r[2].as<bool>();
        m.status = r[3].c_str();
        m.revision = r[4].as<int64_t>();
        m.expire_at = r[5].as<int64_t>();
        m.traffic_limit_bytes = r[6].as<int64_t>();
        m.traffic_used_bytes = r[7].as<int64_t>();
        if (!r[8].is_null()) m.used_today = r[8].as<int64_t>();
        m.panel_mark = r[9].c_str();
        m.short_uuid = r[10].c_str();
        m.subscription_url = r[11].c_str();
        rows.push_back(std::move(m));
    }
    return rows;
}

// What differs between each row and its panel user; rows already in step only count. A
// panel user that holds a write which never committed (a write mark PostgreSQL does not
// have, panel/panel_mark.hpp) is not copied: it goes to tally.in_doubt.
std::vector<Change> changes_of(const std::vector<MirrorRow>& rows,
                               const std::unordered_map<std::string, const PanelUser*>& panel, MirrorTally& tally) {
    std::vector<Change> out;
    for (const auto& r : rows) {
        const auto it = panel.find(r.panel_uuid);
        if (it == panel.end()) continue;  // not the caller's panel user: nothing to say about it
        const PanelUser& p = *it->second;
        const std::string_view claimed = panel_mark_of(p.description);
        if (!claimed.empty() && claimed != r.panel_mark) {
            tally.in_doubt.push_back(r.user_id);
            continue;
        }
        Change c{&r, &p, local_status(r, p.status)};
        // The link too: an operator's revoke on the panel, or a link reset whose answer was
        // lost, gave the panel user a new one, and the old link we hand out no longer works.
        const bool link = !p.subscription_url.empty() && !p.short_uuid.empty() &&
                          (p.subscription_url != r.subscription_url || p.short_uuid != r.short_uuid);
        c.state = p.used_traffic_bytes != r.traffic_used_bytes || p.expire_at != r.expire_at || c.status != r.status ||
                  p.traffic_limit_bytes != r.traffic_limit_bytes || link;
        c.figure = r.used_today != p.used_traffic_bytes;
        if (c.state || c.figure)
            out.push_back(std::move(c));
        else
            ++tally.synced;
    }
    std::sort(out.begin(), out.end(), [](const Change& a, const Change& b) { return a.row->user_id < b.row->user_id; });
    return out;
}

std::unordered_set<int64_t> ids_of(const pqxx::result& result) {
    std::unordered_set<int64_t> ids;
    for (const auto& r : result) ids.insert(r[0].as<int64_t>());
    return ids;
}

// The users' locks that are free now, taken in id order, as every grant takes its user's
// lock from its read to its commit. A user someone holds (a grant is writing it: its
// revision will move anyway) is skipped, not waited for: the sync then never waits on a
// grant, so it can be in no deadlock with one (a purchase locks its buyer, and after its
// panel call the referrer, in whatever order their ids are), and no grant fails after
// its panel call because of the sync. A user deleted since the snapshot (an account
// merge) is not returned either. Skipped users are left to the next run. nullopt: the
// statement itself ran past the statement timeout; the page is left to the next run.
std::optional<std::unordered_set<int64_t>> lock_users(pqxx::work& txn, const std::vector<int64_t>& ids) {
    try {
        return ids_of(
            txn.exec_params("SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE SKIP LOCKED", pg_array(ids)));
    } catch (const pqxx::sql_error& e) {
        if (!lock_wait_ended(e)) throw;
        return std::nullopt;
    }
}

// The subscriptions whose state differs, updated with one statement over the revisions
// read: a row a grant moved since the snapshot matches nothing and keeps the grant.
std::unordered_set<int64_t> update_states(pqxx::work& txn, const std::vector<const Change*>& changes) {
    if (changes.empty()) return {};
    std::vector<int64_t> ids, used, expire, limit, revision;
    std::vector<std::string> status, short_uuid, url;
    for (const Change* c : changes) {
        ids.push_back(c->row->user_id);
        used.push_back(c->panel->used_traffic_bytes);
        expire.push_back(c->panel->expire_at);
        status.push_back(c->status);
        limit.push_back(c->panel->traffic_limit_bytes);
        revision.push_back(c->row->revision);
        short_uuid.push_back(c->panel->short_uuid);
        url.push_back(c->panel->subscription_url);
    }
    // A panel that does not name both the link and its short uuid leaves ours; a new link
    // drops the happ crypto link made from the old one, as a link reset does.
    return ids_of(txn.exec_params(
        "UPDATE subscriptions s SET traffic_used_bytes = v.used, expire_at = to_timestamp(v.expire_at),"
        " status = v.status, traffic_limit_bytes = v.lim, traffic_synced_at = now(), updated_at = now(),"
        " crypto_link = CASE WHEN v.url <> '' AND v.short <> '' AND v.url IS DISTINCT FROM s.subscription_url"
        "  THEN '' ELSE s.crypto_link END,"
        " short_uuid = CASE WHEN v.url <> '' AND v.short <> '' THEN v.short ELSE s.short_uuid END,"
        " subscription_url = CASE WHEN v.url <> '' AND v.short <> '' THEN v.url ELSE s.subscription_url END"
        " FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::text[], $5::bigint[], $6::bigint[], $7::text[], $8::text[])"
        "   AS v(user_id, used, expire_at, status, lim, revision, short, url)"
        " WHERE s.user_id = v.user_id AND s.revision = v.revision RETURNING s.user_id",
        pg_array(ids), pg_array(used), pg_array(expire), pg_array(status), pg_array(limit), pg_array(revision),
        pg_array(short_uuid), pg_array(url)));
}

// A history row for each written expiry that moved (the other columns have no history).
void record_expiries(pqxx::work& txn, const std::vector<const Change*>& written) {
    std::vector<int64_t> ids, before, after;
    for (const Change* c : written) {
        if (c->panel->expire_at == c->row->expire_at) continue;
        ids.push_back(c->row->user_id);
        before.push_back(c->row->expire_at);
        after.push_back(c->panel->expire_at);
    }
    if (ids.empty()) return;
    txn.exec_params0(
        "INSERT INTO subscription_history (user_id, source, days, expire_before, expire_after)"
        " SELECT h.user_id, 'panel_sync', 0, to_timestamp(h.before), to_timestamp(h.after)"
        " FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS h(user_id, before, after)",
        pg_array(ids), pg_array(before), pg_array(after));
}

// Today's figure for the traffic chart (a measurement: no revision to check).
void record_figures(pqxx::work& txn, const std::vector<const Change*>& changes, const std::string& day) {
    std::vector<int64_t> ids, used;
    for (const Change* c : changes) {
        if (!c->figure) continue;
        ids.push_back(c->row->user_id);
        used.push_back(c->panel->used_traffic_bytes);
    }
    if (ids.empty()) return;
    txn.exec_params0(
        "INSERT INTO traffic_snapshots (user_id, day, used_bytes)"
        " SELECT f.user_id, $1::date, f.used FROM unnest($2::bigint[], $3::bigint[]) AS f(user_id, used)"
        " ON CONFLICT (user_id, day) DO UPDATE SET used_bytes = EXCLUDED.used_bytes",
        day, pg_array(ids), pg_array(used));
}

}  // namespace

MirrorSnapshot::MirrorSnapshot(pqxx::connection& conn) : txn_(conn) {
    // A REPEATABLE READ snapshot is taken by the first statement, not by BEGIN.
    day_ = txn_.exec1("SELECT (now() AT TIME ZONE 'UTC')::date::text")[0].c_str();
}

std::vector<MirrorRow> MirrorSnapshot::rows_by_panel_uuid(const std::vector<std::string>& uuids) {
    if (uuids.empty()) return {};
    return rows_of(txn_.exec_params(std::string(kRowSelect) + "WHERE s.panel_uuid = ANY($2::uuid[])", day_,
                                    pg_array(uuids)));
}

std::optional<MirrorRow> MirrorSnapshot::row_of_user(int64_t user_id) {
    auto rows = rows_of(
        txn_.exec_params(std::string(kRowSelect) + "WHERE s.user_id = $2 AND s.panel_uuid IS NOT NULL", day_, user_id));
    if (rows.empty()) return std::nullopt;
    return std::move(rows.front());
}

MirrorTally write_mirror(pqxx::connection& conn, const std::vector<MirrorRow>& rows, const std::string& day,
                         const std::unordered_map<std::string, const PanelUser*>& panel) {
    MirrorTally tally;
    const std::vector<Change> changes = changes_of(rows, panel, tally);
    if (changes.empty()) return tally;
    std::vector<int64_t> ids;
    for (const auto& c : changes) ids.push_back(c.row->user_id);

    pqxx::work txn(conn);
    const auto locked_or_not = lock_users(txn, ids);
    if (!locked_or_not) {
        spdlog::warn("a page of {} changes ran past the statement timeout: left to the next run", changes.size());
        tally.moved += static_cast<int64_t>(changes.size());
        return tally;
    }
    const auto& locked = *locked_or_not;
    std::vector<const Change*> states;
    for (const auto& c : changes)
        if (c.state && locked.count(c.row->user_id)) states.push_back(&c);
    const auto written_ids = update_states(txn, states);
    std::vector<const Change*> written, kept;  // kept: locked, and not moved by a grant
    for (const auto& c : changes) {
        if (!locked.count(c.row->user_id)) continue;
        if (c.state && !written_ids.count(c.row->user_id)) continue;
        if (c.state) written.push_back(&c);
        kept.push_back(&c);
    }
    record_expiries(txn, written);
    record_figures(txn, kept, day);
    txn.commit();
    tally.synced += static_cast<int64_t>(kept.size());
    tally.moved += static_cast<int64_t>(changes.size() - kept.size());
    return tally;
}

std::vector<std::pair<int64_t, std::string>> linked_subscriptions_after(pqxx::connection& conn, int64_t after,
                                                                        int64_t limit) {
    pqxx::nontransaction txn(conn);
    std::vector<std::pair<int64_t, std::string>> out;
    for (const auto& r : txn.exec_params("SELECT user_id, panel_uuid::text FROM subscriptions"
                                         " WHERE panel_uuid IS NOT NULL AND user_id > $1 ORDER BY user_id LIMIT $2",
                                         after, limit))
        out.emplace_back(r[0].as<int64_t>(), r[1].c_str());
    return out;
}

}  // namespace cabinet::ctl
