#pragma once
// The schema migrations (sql/migrations/NNNN_name.sql): applied by `cabinetctl migrate`,
// `cabinetctl setup` and the package's postinst on upgrade.
#include <pqxx/pqxx>

#include <filesystem>
#include <map>
#include <ostream>
#include <string>

namespace cabinet::ctl {

// The numbered migration files of `dir`, by number. Throws on two files of one number.
std::map<int, std::filesystem::path> migration_files(const std::filesystem::path& dir);

// Applied migrations (in `txn`'s database) that `files` lacks, as "0031_x.sql, 0032_y.sql";
// empty: none. The table schema_migrations must exist.
std::string unknown_applied_migrations(pqxx::work& txn, const std::map<int, std::filesystem::path>& files);

// Applies the pending migrations of `dir` to the database, each once in its own transaction
// under an advisory lock, and reports each to `out`. Refuses (std::runtime_error, nothing
// applied) a database holding migrations `dir` does not know: a newer version of cabinet
// ran on it, and this older one would run on a schema it was not written for.
// Returns the number applied now.
int apply_migrations(const std::string& database_url, const std::filesystem::path& dir, std::ostream& out);

}  // namespace cabinet::ctl
