#include "db/overview_repo.hpp"

#include "db/prepared.hpp"

namespace cabinet {

OverviewFigures overview_figures(pqxx::transaction_base& txn, const std::string& time_zone) {
    OverviewFigures f;
    for (const auto& r : exec_prepared(txn, "overview_revenue_days", time_zone))
        f.revenue_days.emplace_back(r["day"].c_str(), r["amount"].as<int64_t>());
    const pqxx::row c = exec_prepared1(txn, "overview_counts", time_zone);
    f.active_subscriptions = c["active"].as<int64_t>();
    f.trial_subscriptions = c["trial"].as<int64_t>();
    f.new_customers_24h = c["new_customers"].as<int64_t>();
    f.trials_30d = c["trials"].as<int64_t>();
    f.converted_30d = c["converted"].as<int64_t>();
    return f;
}

int64_t shop_day_start(pqxx::transaction_base& txn, const std::string& date, int64_t days_after,
                       const std::string& time_zone) {
    return exec_prepared1(txn, "shop_day_start", date, days_after, time_zone)[0].as<int64_t>();
}

void compact_overview_rollups(pqxx::transaction_base& txn) { exec_prepared(txn, "overview_compact"); }

std::optional<BackupJobState> newest_backup_job(pqxx::transaction_base& txn) {
    const auto r = exec_prepared(txn, "overview_backup_job");
    if (r.empty()) return std::nullopt;
    return BackupJobState{r[0]["status"].c_str(), r[0]["last_error"].c_str()};
}

std::optional<LedgerCheckRun> last_ledger_check(pqxx::transaction_base& txn) {
    const auto rows = exec_prepared(txn, "overview_ledger_check");
    if (rows.empty()) return std::nullopt;
    return LedgerCheckRun{rows[0]["checked_at"].as<int64_t>(), rows[0]["problems"].as<int64_t>(), rows[0]["first_problem"].c_str()};
}

}  // namespace cabinet
