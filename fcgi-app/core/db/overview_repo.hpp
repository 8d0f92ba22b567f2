#pragma once
// The figures of the owner's Overview as PostgreSQL holds them (overview_statements.cpp).
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cabinet {

struct OverviewFigures {
    // The last 30 days in the shop's time zone, oldest first: {"YYYY-MM-DD", minor units}.
    std::vector<std::pair<std::string, int64_t>> revenue_days;
    int64_t active_subscriptions = 0;  // paid, not expired (active or limited)
    int64_t trial_subscriptions = 0;   // trials not expired
    int64_t new_customers_24h = 0;
    int64_t trials_30d = 0;            // trials begun on the last 30 days (the shop's, today included)
    int64_t converted_30d = 0;         // of them, those paid for a subscription since
};

struct BackupJobState {
    std::string status;  // the jobs table's: pending | running | done | dead
    std::string last_error;
};

OverviewFigures overview_figures(pqxx::transaction_base& txn, const std::string& time_zone);
// The Unix second the shop's day `date` ("2026-01-31") + `days_after` begins at, in
// `time_zone` (its midnight, whatever the zone's offset that day).
int64_t shop_day_start(pqxx::transaction_base& txn, const std::string& date, int64_t days_after,
                       const std::string& time_zone);

// Sums each bucket's rows of the rollups into one (sql 0047 overview_compact; the worker,
// every minute, and the bench seed after its bulk load).
void compact_overview_rollups(pqxx::transaction_base& txn);

// The newest "backup now" job; nullopt when there was none.
std::optional<BackupJobState> newest_backup_job(pqxx::transaction_base& txn);

// The money check's last run (cabinetctl check-ledger; sql 0052); nullopt: never run.
struct LedgerCheckRun {
    int64_t checked_at = 0;
    int64_t problems = 0;
    std::string first_problem;
};
std::optional<LedgerCheckRun> last_ledger_check(pqxx::transaction_base& txn);

}  // namespace cabinet
