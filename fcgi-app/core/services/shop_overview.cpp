#include "services/shop_overview.hpp"

#include "backup/backup.hpp"
#include "cache/worker_heartbeat.hpp"
#include "services/maintenance.hpp"
#include "util/time.hpp"

namespace cabinet {

ShopOverview shop_overview(Db& db, Redis& redis, const Settings& s) {
    ShopOverview o;
    db.read([&](pqxx::nontransaction& txn) {
        o.figures = overview_figures(txn, s.shop_timezone);
        o.maintenance = load_maintenance(txn, s);
        o.backup_job = newest_backup_job(txn);
        o.ledger_check = last_ledger_check(txn);
    });
    o.worker_heartbeat_at = worker_heartbeat(redis);
    o.worker_ok = o.worker_heartbeat_at && unix_now() - *o.worker_heartbeat_at <= s.worker_heartbeat_max_age_s;
    if (!s.backup_dir.empty()) o.backup_at = backup::newest_archive_time(s.backup_dir);
    return o;
}

}  // namespace cabinet
