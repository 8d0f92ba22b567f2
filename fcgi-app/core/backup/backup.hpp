#pragma once
// Making and restoring backups (issue 6): pg_dump (custom format) packed into an AES-256
// zip in BACKUP_DIR, retention, delivery to the reporting group's backups topic; restore
// into an empty database with pg_restore. Used by `cabinetctl backup|restore`; a worker
// task for the admin's "backup now" can call make_backup as well.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/settings.hpp"

namespace cabinet::backup {

// Session advisory lock held while a backup is made: two runs never make two backups.
constexpr int64_t kBackupLock = 0x636162626b7570;  // "cabbkup"
// The worker's job kind for an admin's "backup now" (tools/cabinetctl/job_handlers.cpp).
inline constexpr const char* kBackupJob = "backup";

struct BackupResult {
    enum class Outcome { made, not_due, disabled, busy } outcome = Outcome::made;
    std::string path;                  // the new archive (made)
    int64_t size = 0;
    std::vector<std::string> deleted;  // archives removed by retention
    bool delivered = false;
    std::string delivery_error;        // non-empty when delivery was attempted and failed
    std::string message;               // one line for the operator
};

// if_due: only when BACKUP_ENABLED and backup_due(...) say so (cron); else always.
// Throws std::runtime_error with a clear message when the backup cannot be made.
BackupResult make_backup(const Settings& s, bool if_due);

// Newest archive time in `dir` (by the names), nullopt when there is none.
std::optional<int64_t> newest_archive_time(const std::string& dir);

// How far a restore moves every id sequence past the archive's values, so that no id
// handed out after the archive was made (an invoice a provider may still notify about) is
// handed out again. A day between backups would need a million purchases to use it up.
inline constexpr int64_t kRestoredIdGap = 1'000'000;
// What the operator does after a restore; the end of its summary.
inline constexpr const char* kRestoreNextStep =
    "next: with DATABASE_URL pointing at it, run `cabinetctl migrate` (an archive made before the last upgrade "
    "lacks its migrations), then restart the pool and the worker";

// Verifies the archive fully (password, integrity) and restores it into `database_url`,
// which must be empty; pg_restore runs in one transaction, so a failure leaves it empty.
// Throws std::runtime_error with a clear message; returns a one-line summary.
std::string restore_backup(const std::string& archive, const std::string& password, const std::string& database_url);

// Runs a PostgreSQL client tool (pg_dump, pg_restore) against `database_url`: the
// connection goes through libpq's environment variables (PGHOST, PGPASSWORD, ...) and a
// password-free conninfo in --dbname, so no secret appears on a command line.
void run_pg_tool(std::vector<std::string> argv, const std::string& database_url);

}  // namespace cabinet::backup
