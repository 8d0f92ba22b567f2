// cabinetctl migrate: forward-only, numbered SQL files, each applied once in its own
// transaction and recorded; an advisory lock keeps two migrators from racing. A migration
// waits for a running backup first (its lock, not the tables'): pg_dump holds a read lock
// on every table until it ends, and an ALTER queued behind it would make every reader of
// that table queue behind the ALTER, stalling the running pool for the dump's minutes.
#include <pqxx/pqxx>

#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>

#include "backup/backup.hpp"
#include "commands.hpp"
#include "migrations.hpp"

namespace cabinet::ctl {
namespace fs = std::filesystem;

namespace {
constexpr long long kMigrationLock = 0x6361626d6967;  // "cabmig"

// The file's SQL; throws when it cannot be read or holds nothing, which would otherwise
// be recorded as applied without having run.
std::string read_migration(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    if (!in || !(ss << in.rdbuf()) || in.bad()) throw std::runtime_error("cannot read the migration " + p.string());
    std::string sql = ss.str();
    if (sql.find_first_not_of(" \t\r\n") == std::string::npos)
        throw std::runtime_error("the migration " + p.string() + " is empty: a damaged copy? nothing was applied");
    return sql;
}

}  // namespace

std::string unknown_applied_migrations(pqxx::work& txn, const std::map<int, fs::path>& files) {
    std::string out;
    for (const auto& row : txn.exec("SELECT version, name FROM schema_migrations ORDER BY version")) {
        if (files.count(row[0].as<int>())) continue;
        out += (out.empty() ? "" : ", ") + row[1].as<std::string>();
    }
    return out;
}

std::map<int, fs::path> migration_files(const fs::path& dir) {
    static const std::regex name_re(R"(^(\d{4})_([a-z0-9_]+)\.sql$)");
    std::map<int, fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir)) {
        std::smatch m;
        const std::string name = entry.path().filename().string();
        if (!std::regex_match(name, m, name_re)) continue;
        const int version = std::stoi(m[1].str());
        if (files.count(version)) throw std::runtime_error("two migrations numbered " + m[1].str());
        files[version] = entry.path();
    }
    return files;
}

int apply_migrations(const std::string& database_url, const fs::path& dir, std::ostream& out) {
    const auto files = migration_files(dir);
    pqxx::connection conn(database_url);
    {
        pqxx::work txn(conn);
        txn.exec0("CREATE TABLE IF NOT EXISTS schema_migrations ("
                  " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
        txn.exec("SELECT pg_advisory_xact_lock(" + std::to_string(kMigrationLock) + ")");
        const std::string unknown = unknown_applied_migrations(txn, files);
        if (!unknown.empty())
            throw std::runtime_error("the database has migrations this version does not know (" + unknown +
                                     "): it was upgraded by a newer cabinet; install that version again "
                                     "(the schema is never downgraded), or restore a backup taken before the upgrade");
        txn.commit();
    }
    int applied = 0;
    for (const auto& [version, path] : files) {
        pqxx::work txn(conn);
        txn.exec("SELECT pg_advisory_xact_lock(" + std::to_string(kMigrationLock) + ")");
        if (!txn.exec_params("SELECT 1 FROM schema_migrations WHERE version = $1", version).empty()) continue;
        const std::string sql = read_migration(path);
        txn.exec("SELECT pg_advisory_xact_lock(" + std::to_string(backup::kBackupLock) + ")");
        txn.exec(sql);
        txn.exec_params0("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version,
                         path.filename().string());
        txn.commit();
        out << "applied " << path.filename().string() << "\n";
        ++applied;
    }
    out << (applied ? "" : "nothing to apply; ") << files.size() << " migrations known, " << applied
        << " applied now\n";
    return applied;
}

int migrate(const Args& args) {
    const Settings s = load_or_die();
    apply_migrations(s.database_url, option(args, "--dir", sql_dir() + "/migrations"), std::cout);
    return 0;
}

}  // namespace cabinet::ctl
