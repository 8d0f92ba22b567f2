// cabinetctl seed-demo: demo plans, theme and a demo user (sql/demo.sql), plus on request
// N numbered users for benchmarks (Telegram ids 900000001..).
#include <pqxx/pqxx>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
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

    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    txn.exec(sql.str());
    if (bench_users > 0) {
        txn.exec_params0(
            "INSERT INTO users (telegram_id, username, first_name, language, referral_code)"
            " SELECT 900000000 + i, 'bench' || i, 'Bench ' || i, 'en', 'BENCH' || i"
            " FROM generate_series(1, $1) i ON CONFLICT (telegram_id) DO NOTHING",
            bench_users);
        // Balance for the purchase mix, topped up again on every run (through the ledger).
        txn.exec_params(
            "SELECT ledger_set_balance(id, 1000000000, 'admin', 'bench data') FROM users"
            " WHERE telegram_id BETWEEN 900000001 AND 900000000 + $1 AND balance_minor < 1000000000",
            bench_users);
        // Each with a running subscription, so /me and /connection do their full work.
        txn.exec_params0(
            "INSERT INTO subscriptions (user_id, status, plan_id, plan_snapshot, expire_at, device_limit,"
            "  short_uuid, subscription_url)"
            " SELECT u.id, 'active', p.id, jsonb_build_object('name', p.name), now() + interval '30 days', 3,"
            "  'bench' || u.id, 'http://127.0.0.1:3010/sub/bench' || u.id"
            " FROM users u, plans p WHERE u.telegram_id BETWEEN 900000001 AND 900000000 + $1 AND p.public_code = 'standard'"
            " ON CONFLICT (user_id) DO NOTHING",
            bench_users);
    }
    txn.commit();
    link_demo_user_to_panel(s);
    std::cout << "demo data loaded" << (bench_users ? " with " + std::to_string(bench_users) + " bench users" : "")
              << "\n";
    return 0;
}

}  // namespace cabinet::ctl
