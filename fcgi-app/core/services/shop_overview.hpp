#pragma once
// The owner's Overview (/api/admin/overview): the shop's figures as PostgreSQL holds them
// (db/overview_repo.hpp) and the state of what keeps the shop running: the panel as the
// watchdog last saw it, the worker's heartbeat, the newest backup, the money check's verdict.
#include <cstdint>
#include <optional>

#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"
#include "db/overview_repo.hpp"
#include "domain/maintenance.hpp"

namespace cabinet {

struct ShopOverview {
    OverviewFigures figures;
    MaintenanceState maintenance;  // on/off, and the watchdog's last panel check
    std::optional<int64_t> worker_heartbeat_at;
    bool worker_ok = false;  // a heartbeat within WORKER_HEARTBEAT_MAX_AGE_S
    std::optional<int64_t> backup_at;  // the newest archive in BACKUP_DIR
    std::optional<BackupJobState> backup_job;  // the newest "backup now"
    std::optional<LedgerCheckRun> ledger_check;  // the money check's last run
};

ShopOverview shop_overview(Db& db, Redis& redis, const Settings& s);

}  // namespace cabinet
