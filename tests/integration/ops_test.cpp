// Operator commands: migrations and demo seed are idempotent; bad settings stop a process
// at start with the variable's name.
#include <boost/test/unit_test.hpp>

#include <pqxx/pqxx>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "backup/backup.hpp"
#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(operations)

BOOST_AUTO_TEST_CASE(seed_demo_twice_changes_nothing) {
    const auto plans = count("SELECT count(*) FROM plans");
    const auto durations = count("SELECT count(*) FROM plan_durations");
    const auto demo = count("SELECT count(*) FROM users WHERE telegram_id = 100000001");
    // The demo's three (the browser tests, which may run before, add plans of their own).
    BOOST_TEST(count("SELECT count(*) FROM plans WHERE public_code IN ('start', 'standard', 'family')") == 3);
    BOOST_TEST(demo == 1);
    BOOST_TEST(run(ctl("seed-demo")).first == 0);
    BOOST_TEST(count("SELECT count(*) FROM plans") == plans);
    BOOST_TEST(count("SELECT count(*) FROM plan_durations") == durations);
    BOOST_TEST(count("SELECT count(*) FROM subscriptions s JOIN users u ON u.id = s.user_id WHERE u.telegram_id = 100000001") == 1);
}

// The benchmark's users: funded through the ledger, topped up again on a second run, and
// the books still balance (the demo user's 500.00 too).
BOOST_AUTO_TEST_CASE(seed_demo_bench_users_are_funded_through_the_ledger) {
    BOOST_TEST(count("SELECT balance_minor FROM users WHERE telegram_id = 100000001") ==
               count("SELECT coalesce(sum(l.delta_minor), 0) FROM balance_ledger l JOIN users u ON u.id = l.user_id"
                     " WHERE u.telegram_id = 100000001"));
    for (int i = 0; i < 2; ++i) {
        const auto [rc, out] = run(ctl("seed-demo --bench-users 3"));
        BOOST_TEST_REQUIRE(rc == 0, out);
    }
    // At least the bench balance: bench users refer each other and some renew by autopay,
    // so another suite's autopay scan may have paid them a commission since the top-up.
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id BETWEEN 900000001 AND 900000003"
                     " AND balance_minor >= 1000000000") == 3);
    // Each one's ledger (its history's balance moves, then the top-up) ends at that balance.
    BOOST_TEST(count("SELECT count(*) FROM users u WHERE u.telegram_id BETWEEN 900000001 AND 900000003"
                     " AND u.balance_minor = (SELECT sum(delta_minor) FROM balance_ledger l WHERE l.user_id = u.id)") == 3);
    const auto [rc, out] = run(ctl("check-ledger"));
    BOOST_TEST(rc == 0, out);
}

BOOST_AUTO_TEST_CASE(invalid_setting_stops_the_pool_naming_it) {
    const auto [rc, out] = run("TRIAL_DURATION_DAYS=three '" CABINET_FCGI_BIN "' --listen unix:/tmp/never.sock --threads 1");
    BOOST_TEST(rc == 2);
    BOOST_TEST(out.find("TRIAL_DURATION_DAYS") != std::string::npos);
    const auto [rc2, out2] = run("BOT_TOKEN= '" CABINET_FCGI_BIN "' --threads 1");
    BOOST_TEST(rc2 == 2);
    BOOST_TEST(out2.find("BOT_TOKEN") != std::string::npos);
}

// The pool prepares a statement when a connection first runs it, so it checks them all at
// start: one that does not fit the database (here none does: the schema is off the search
// path) stops the process with the statement's name instead of failing its requests.
BOOST_AUTO_TEST_CASE(a_statement_that_does_not_fit_the_database_stops_the_pool_naming_it) {
    const auto [rc, out] =
        run("PGOPTIONS='-c search_path=nowhere' '" CABINET_FCGI_BIN "' --listen unix:/tmp/never.sock --threads 1");
    BOOST_TEST(rc == 1);
    BOOST_TEST(out.find("does not fit the database") != std::string::npos, out);
    BOOST_TEST(out.find("statement account_by_telegram_id") != std::string::npos, out);
}

BOOST_AUTO_TEST_CASE(user_transactions_view_lists_the_history) {
    const auto [rc, out] = run(ctl("user transactions --telegram-id 100000001"));
    BOOST_TEST(rc == 0);
    BOOST_TEST(out.find("id\tat\ttype\tstatus") != std::string::npos);
    const auto [rc2, out2] = run(ctl("user transactions --telegram-id 1"));
    BOOST_TEST(rc2 == 0);  // an unknown user simply has no history
}

BOOST_AUTO_TEST_CASE(cleanup_deletes_only_what_nothing_reads_again) {
    const std::string tag = "cleanup-" + std::to_string(fresh_telegram_id());
    const auto job = [&](const std::string& status, const std::string& finished) {
        exec("INSERT INTO jobs (kind, payload, status, finished_at) VALUES ('noop', jsonb_build_object('tag', '" + tag +
             "'), '" + status + "', now() - interval '" + finished + "')");
    };
    job("done", "30 days");   // old: goes
    job("done", "1 day");     // recent: stays
    job("dead", "300 days");  // dead: stays for the operator
    const std::string user = "(SELECT id FROM users WHERE telegram_id = 100000001)";
    const std::string hash_old = std::string(64, 'a'), hash_live = std::string(64, 'b');
    exec("INSERT INTO email_verification_tokens (token_hash, user_id, email, expires_at) VALUES ('" + hash_old + "', " + user +
         ", 'x@example.test', now() - interval '3 days'), ('" + hash_live + "', " + user + ", 'x@example.test', now() + interval '1 day')"
         " ON CONFLICT DO NOTHING");
    exec("INSERT INTO auth_failures (key, window_start, count) VALUES ('ip:" + tag + "', now() - interval '2 days', 3)");

    const auto [rc, out] = run(ctl("cleanup"));
    BOOST_TEST(rc == 0, out);
    BOOST_TEST(out.find("finished jobs") != std::string::npos, out);
    const std::string mine = "FROM jobs WHERE payload->>'tag' = '" + tag + "'";
    BOOST_TEST(count("SELECT count(*) " + mine) == 2);
    BOOST_TEST(count("SELECT count(*) " + mine + " AND status = 'dead'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens WHERE token_hash = '" + hash_old + "'") == 0);
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens WHERE token_hash = '" + hash_live + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM auth_failures WHERE key = 'ip:" + tag + "'") == 0);
    exec("DELETE FROM email_verification_tokens WHERE token_hash = '" + hash_live + "'");
    BOOST_TEST(run(ctl("cleanup --keep-days 0")).first != 0);
}

// Migrations from 0023 on are written to apply again cleanly (OR REPLACE, IF NOT EXISTS):
// an operator who re-runs one by hand after a restore, and the bench's "newest migration
// again" row, must not meet "already exists". Each is applied to the migrated database in a
// transaction that is then rolled back.
BOOST_AUTO_TEST_CASE(migrations_from_0023_apply_again_on_a_migrated_database) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::path(FIXTURES_DIR).parent_path().parent_path() / "sql" / "migrations";
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name.size() < 5 || std::stoi(name.substr(0, 4)) < 23) continue;
        std::ifstream in(entry.path());
        std::stringstream sql;
        sql << in.rdbuf();
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::work txn(conn);
        try {
            txn.exec(sql.str());
        } catch (const std::exception& e) {
            BOOST_ERROR(name << " does not apply again: " << e.what());
        }
        txn.abort();
        ++checked;
    }
    BOOST_TEST(checked >= 3);
}

// A migration waits for a running backup before it takes any table lock (pg_dump reads
// every table until it ends; an ALTER queued behind it would queue the pool's reads behind
// itself), and an empty migration file is refused, not recorded as applied.
BOOST_AUTO_TEST_CASE(a_migration_waits_for_a_running_backup_and_an_empty_one_is_refused) {
    namespace fs = std::filesystem;
    const fs::path src = fs::path(FIXTURES_DIR).parent_path().parent_path() / "sql" / "migrations";
    const fs::path dir = env("STACK_DIR") + "/migrations-" + std::to_string(getpid());
    fs::create_directories(dir);
    for (const auto& entry : fs::directory_iterator(src)) fs::copy_file(entry.path(), dir / entry.path().filename());
    const std::string forget = "DELETE FROM schema_migrations WHERE version >= 9998";

    std::ofstream(dir / "9999_damaged.sql") << "  \n";
    const auto [rc, out] = run(ctl("migrate --dir " + dir.string()));
    BOOST_TEST(rc != 0);
    BOOST_TEST(out.find("9999_damaged.sql is empty") != std::string::npos, out);
    BOOST_TEST(count("SELECT count(*) FROM schema_migrations WHERE version = 9999") == 0);
    exec(forget);
    fs::remove(dir / "9999_damaged.sql");

    std::ofstream(dir / "9998_harmless.sql") << "SELECT 1;\n";
    pqxx::connection backup(env("DATABASE_URL"));
    pqxx::nontransaction(backup).exec("SELECT pg_advisory_lock(" + std::to_string(cabinet::backup::kBackupLock) + ")");
    std::pair<int, std::string> migrated;
    std::thread migrate([&] { migrated = run(ctl("migrate --dir " + dir.string())); });
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    BOOST_TEST(count("SELECT count(*) FROM schema_migrations WHERE version = 9998") == 0);  // still waiting
    pqxx::nontransaction(backup).exec("SELECT pg_advisory_unlock(" + std::to_string(cabinet::backup::kBackupLock) + ")");
    migrate.join();
    BOOST_TEST(migrated.first == 0, migrated.second);
    BOOST_TEST(count("SELECT count(*) FROM schema_migrations WHERE version = 9998") == 1);
    exec(forget);
    fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
