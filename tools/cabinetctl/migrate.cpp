// cabinetctl migrate: forward-only, numbered SQL files, each applied once in its own
// transaction and recorded; an advisory lock keeps two migrators from racing.
#include <pqxx/pqxx>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>

#include "commands.hpp"

namespace cabinet::ctl {
namespace fs = std::filesystem;

namespace {
constexpr long long kMigrationLock = 0x6361626d6967;  // "cabmig"

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}
}  // namespace

int migrate(const Args& args) {
    const Settings s = load_or_die();
    const fs::path dir = option(args, "--dir", sql_dir() + "/migrations");
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

    pqxx::connection conn(s.database_url);
    {
        pqxx::work txn(conn);
        txn.exec0("CREATE TABLE IF NOT EXISTS schema_migrations ("
                  " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
        txn.commit();
    }
    int applied = 0;
    for (const auto& [version, path] : files) {
        pqxx::work txn(conn);
        txn.exec("SELECT pg_advisory_xact_lock(" + std::to_string(kMigrationLock) + ")");
        if (!txn.exec_params("SELECT 1 FROM schema_migrations WHERE version = $1", version).empty()) continue;
        txn.exec(read_file(path));
        txn.exec_params0("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", version,
                         path.filename().string());
        txn.commit();
        std::cout << "applied " << path.filename().string() << "\n";
        ++applied;
    }
    std::cout << (applied ? "" : "nothing to apply; ") << files.size() << " migrations known, " << applied
              << " applied now\n";
    return 0;
}

}  // namespace cabinet::ctl
