// cabinetctl backup / restore (issue 6): the work is in core/backup; here are the
// arguments, the output and the exit codes.
//   backup            make an archive now (0 made, 1 failed or made but not delivered)
//   backup --if-due   cron, every few minutes: one backup a day after BACKUP_TIME (Moscow)
//                     when BACKUP_ENABLED; 0 also when nothing was due or another run holds the lock.
//                     A failure also goes to the alerts topic (once a day): the timer's run
//                     has nobody watching its exit code.
//   restore FILE [--database-url URL]   into an empty database; 1 with a clear message otherwise
#include <spdlog/spdlog.h>

#include <iostream>

#include "backup/backup.hpp"
#include "commands.hpp"
#include "db/db.hpp"
#include "services/reports.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

// Queues "the scheduled backup failed" for the alerts topic, once a day whatever the number
// of failed runs. Best effort: a database that is down is often why the backup failed.
void alert_failed_backup(const Settings& s, const std::string& why) {
    try {
        Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
        const std::string key = "backup-alert:" + iso8601_utc(unix_now()).substr(0, 10);
        const bool queued = db.write([&](pqxx::work& txn) {
            return enqueue_report(txn, s, ReportTopic::alerts, "The scheduled backup failed: " + why, {}, key);
        });
        if (!queued) spdlog::warn("backup failure: the alerts topic is not configured; nothing sent");
    } catch (const std::exception& e) {
        spdlog::error("backup failure could not be queued for the alerts topic: {}", e.what());
    }
}

}  // namespace

int backup(const Args& args) {
    for (const auto& a : args)
        if (a != "--if-due") {
            std::cerr << "cabinetctl backup: unknown argument " << a << " (usage: backup [--if-due])\n";
            return 2;
        }
    const Settings s = load_or_die();
    const bool scheduled = flag(args, "--if-due");
    backup::BackupResult r;
    try {
        r = backup::make_backup(s, scheduled);
    } catch (const std::exception& e) {
        if (scheduled) alert_failed_backup(s, e.what());
        throw;
    }
    std::cout << r.message << "\n";
    for (const auto& d : r.deleted) std::cout << "deleted old backup " << d << " (BACKUP_KEEP_LAST=" << s.backup_keep_last << ")\n";
    if (r.delivered) std::cout << "delivered to chat " << s.report_chat_id << ", topic " << s.report_topic_backups << "\n";
    if (!r.delivery_error.empty()) {
        std::cerr << "cabinetctl backup: the archive is written but was not delivered: " << r.delivery_error << "\n";
        if (scheduled) alert_failed_backup(s, "the archive " + r.path + " is written but was not delivered: " + r.delivery_error);
        return 1;
    }
    return 0;
}

int restore(const Args& args) {
    std::string file;
    for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--database-url") {
            ++i;
            continue;
        }
        if (!file.empty() || args[i].rfind("--", 0) == 0) {
            std::cerr << "cabinetctl restore: unexpected argument " << args[i] << "\n";
            return 2;
        }
        file = args[i];
    }
    if (file.empty()) {
        std::cerr << "usage: cabinetctl restore FILE [--database-url URL]\n";
        return 2;
    }
    const Settings s = load_or_die();
    const std::string url = option(args, "--database-url", s.database_url);
    std::cout << backup::restore_backup(file, s.backup_encryption_password, url) << "\n";
    return 0;
}

}  // namespace cabinet::ctl
