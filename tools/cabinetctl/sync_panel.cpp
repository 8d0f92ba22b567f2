// cabinetctl sync-panel: mirror the panel's view of every subscription (usage, expiry,
// status) into PostgreSQL in batches, and record today's usage for the traffic chart.
// The panel enforces limits and expiry; this keeps what the cabinet shows in step.
#include <pqxx/pqxx>
#include <spdlog/spdlog.h>

#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "db/ledger_repo.hpp"
#include "log/logging.hpp"
#include "panel/panel_client.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {
namespace {

// Panel status -> our status (docs/decisions.md "Subscription states").
std::string local_status(const std::string& panel_status, bool is_trial) {
    if (panel_status == "LIMITED") return "limited";
    if (panel_status == "EXPIRED") return "expired";
    if (panel_status == "DISABLED") return "disabled";
    return is_trial ? "trial" : "active";
}

}  // namespace

int sync_panel(const Args& args) {
    const Settings s = load_or_die();
    setup_logging(s.log_level, "cabinet-sync");
    int64_t batch = 100;
    if (!parse_int64(option(args, "--batch", "100"), batch) || batch < 1 || batch > 10000)
        throw std::runtime_error("--batch must be 1..10000");
    int64_t only_user = 0;  // 0: every subscription
    if (!option(args, "--user-id").empty() && (!parse_int64(option(args, "--user-id"), only_user) || only_user <= 0))
        throw std::runtime_error("--user-id must be a user id");
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);  // prepares the history statement
    pqxx::connection& conn = db.conn();

    int64_t after = 0, synced = 0, missing = 0, moved = 0;
    while (true) {
        pqxx::result rows;
        {
            pqxx::nontransaction txn(conn);
            rows = txn.exec_params(
                "SELECT user_id, panel_uuid::text, is_trial, status, revision,"
                " floor(extract(epoch FROM expire_at))::bigint AS expire_at FROM subscriptions"
                " WHERE panel_uuid IS NOT NULL AND user_id > $1 AND ($3 = 0 OR user_id = $3) ORDER BY user_id LIMIT $2",
                after, batch, only_user);
        }
        if (rows.empty()) break;
        for (const auto& r : rows) {
            after = r[0].as<int64_t>();
            // No lock while the panel answers (DESIGN: no outside call under a row lock).
            const auto pu = panel.get_user(r[1].c_str());  // a panel outage aborts the run: cron retries
            if (!pu) {
                spdlog::warn("user {}: panel user {} is gone", after, r[1].c_str());
                ++missing;
                continue;
            }
            const std::string status = std::string(r[3].c_str()) == "pending" ? "pending" : local_status(pu->status, r[2].as<bool>());
            // The mirror is written under the user's lock and only over the revision read
            // above: a grant that ran meanwhile (it holds the same lock from its read to its
            // commit) has moved the revision, and its newer state is kept; the next run
            // mirrors it.
            pqxx::work txn(conn);
            txn.exec_params("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", after);
            const auto written = txn.exec_params(
                "UPDATE subscriptions SET traffic_used_bytes = $2, expire_at = to_timestamp($3), status = $4,"
                " traffic_limit_bytes = $5, traffic_synced_at = now(), updated_at = now()"
                " WHERE user_id = $1 AND revision = $6 RETURNING 1",
                after, pu->used_traffic_bytes, pu->expire_at, status, pu->traffic_limit_bytes, r[4].as<int64_t>());
            if (written.empty()) {
                ++moved;
                continue;
            }
            if (pu->expire_at != r[5].as<int64_t>())
                record_subscription_history(txn, after, "panel_sync", std::nullopt, 0, r[5].as<int64_t>(), pu->expire_at);
            txn.exec_params0(
                "INSERT INTO traffic_snapshots (user_id, day, used_bytes) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2)"
                " ON CONFLICT (user_id, day) DO UPDATE SET used_bytes = EXCLUDED.used_bytes",
                after, pu->used_traffic_bytes);
            txn.commit();
            ++synced;
        }
    }
    spdlog::info("panel sync: {} subscriptions synced, {} missing on the panel, {} changed meanwhile (next run)", synced,
                 missing, moved);
    std::cout << "synced " << synced << ", missing " << missing << ", changed meanwhile " << moved << "\n";
    return 0;
}

}  // namespace cabinet::ctl
