// cabinetctl seed-demo: demo plans, theme and a demo user (sql/demo.sql), plus on request
// N numbered users for benchmarks (Telegram ids 900000001.., seed_bench.cpp) and their
// panel users in a stopped mock panel's snapshot (--panel-state FILE, bench_panel_state.cpp).
// Prints how long it took: a million bench users take minutes.
#include <pqxx/pqxx>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "bench_panel_state.hpp"
#include "commands.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
#include "seed_bench.hpp"
#include "services/subscription_grant.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {
namespace {

// The demo user's subscription gets a real (mock) panel user, so its link, devices and
// rotation work in the local stack. Without a panel it stays local-only.
void link_demo_user_to_panel(const Settings& s) {
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);  // prepares the repositories' statements
    pqxx::work txn(db.conn());
    const auto account = find_account_by_telegram_id(txn, 100000001);
    if (!account || !account->subscription || !account->subscription->panel_uuid.empty()) return;
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
    const auto& sub = *account->subscription;
    try {
        const PanelUser pu = ensure_panel_user(
            panel, *account, PanelUserState{sub.expire_at, sub.traffic_limit_bytes, sub.device_limit, true});
        txn.exec_params0("UPDATE subscriptions SET panel_uuid = $2::uuid, short_uuid = $3, subscription_url = $4"
                         " WHERE user_id = $1",
                         account->user.id, pu.uuid, pu.short_uuid, pu.subscription_url);
        txn.commit();
    } catch (const PanelError& e) {
        std::cerr << "seed-demo: panel unavailable, demo subscription stays local: " << e.why() << "\n";
    }
}

}  // namespace

int seed_demo(const Args& args) {
    const Settings s = load_or_die();
    const std::filesystem::path file = option(args, "--file", sql_dir() + "/demo.sql");
    std::ifstream in(file);
    if (!in) throw std::runtime_error("cannot read " + file.string());
    std::stringstream sql;
    sql << in.rdbuf();

    int64_t bench_users = 0;
    if (!parse_int64(option(args, "--bench-users", "0"), bench_users) || bench_users < 0 || bench_users > 1000000)
        throw std::runtime_error("--bench-users must be 0..1000000");

    const std::string panel_state = option(args, "--panel-state", "");  // only while the mock is stopped
    const auto started = std::chrono::steady_clock::now();

    pqxx::connection conn(s.database_url);
    BenchSeedResult bench;
    {
        pqxx::work txn(conn);
        txn.exec(sql.str());
        if (bench_users > 0) bench = seed_bench_users(txn, bench_users, s.panel_base_url);
        txn.commit();
    }
    // Fresh statistics for the tables a large seed grew, so the pool's first queries are
    // planned for their real size (autovacuum would get there, minutes later).
    if (bench.added >= 1000) {
        pqxx::nontransaction n(conn);
        n.exec0("SET statement_timeout = 0");
        // The bulk load appended a rollup row per payment, trial and subscription (sql 0047,
        // 0053): millions of them. Counted first, or the compaction is planned for the few rows the
        // tables had (a scan of all per bucket: it ran for more than ten minutes).
        n.exec0("ANALYZE overview_revenue, overview_expiries, overview_trials, payment_totals");
        n.exec1("SELECT overview_compact()");  // one row: the function returns void
        n.exec0("ANALYZE users, subscriptions, transactions, balance_ledger, subscription_history,"
                " referral_earnings, events");
    }
    int64_t panel_added = 0;
    if (!panel_state.empty() && bench_users > 0) panel_added = add_bench_panel_users(conn, bench_users, panel_state);
    if (panel_state.empty()) link_demo_user_to_panel(s);  // else the mock is stopped: linked at its next seed
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cout << "demo data loaded";
    if (bench_users > 0)
        std::cout << " with " << bench_users << " bench users (" << bench.added << " added, " << bench.topped_up
                  << " topped up" << (panel_state.empty() ? "" : ", " + std::to_string(panel_added) + " panel users added")
                  << ")";
    char took[32];
    std::snprintf(took, sizeof took, "%.1f", seconds);
    std::cout << " in " << took << " s\n";
    return 0;
}

}  // namespace cabinet::ctl
