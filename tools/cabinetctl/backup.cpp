// cabinetctl backup / restore (issue 6): the work is in core/backup; here are the
// arguments, the output and the exit codes.
//   backup            make an archive now (0 made, 1 failed or made but not delivered)
//   backup --if-due   cron, every few minutes: one backup a day after BACKUP_TIME (Moscow)
//                     when BACKUP_ENABLED; 0 also when nothing was due or another run holds the lock
//   restore FILE [--database-url URL]   into an empty database; 1 with a clear message otherwise
#include <iostream>

#include "backup/backup.hpp"
#include "commands.hpp"

namespace cabinet::ctl {

int backup(const Args& args) {
    for (const auto& a : args)
        if (a != "--if-due") {
            std::cerr << "cabinetctl backup: unknown argument " << a << " (usage: backup [--if-due])\n";
            return 2;
        }
    const Settings s = load_or_die();
    const auto r = backup::make_backup(s, flag(args, "--if-due"));
    std::cout << r.message << "\n";
    for (const auto& d : r.deleted) std::cout << "deleted old backup " << d << " (BACKUP_KEEP_LAST=" << s.backup_keep_last << ")\n";
    if (r.delivered) std::cout << "delivered to chat " << s.report_chat_id << ", topic " << s.report_topic_backups << "\n";
    if (!r.delivery_error.empty()) {
        std::cerr << "cabinetctl backup: the archive is written but was not delivered: " << r.delivery_error << "\n";
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
