#include "db/host_gauges_repo.hpp"

#include "db/prepared.hpp"

namespace cabinet {
namespace {

// Not prepared: one scrape every 15 s or so, on whichever thread nginx picks. Every part
// reads an index, never a whole table: the payments of the last hour through the BRIN index
// on created_at (sql 0035), the pending ones through the partial index of pending rows
// (sql 0004). Counting every payment ever made took 5 s a scrape at 20 million transactions.
constexpr const char* kHostGauges = R"SQL(
SELECT 'jobs', status, '', count(*)::float8 FROM jobs WHERE status IN ('pending', 'running', 'dead') GROUP BY status
UNION ALL
SELECT 'jobs_oldest_due_s', '', '', COALESCE(EXTRACT(EPOCH FROM now() - min(run_at)), 0)::float8
  FROM jobs WHERE status = 'pending' AND run_at <= now()
UNION ALL
SELECT 'payments_last_hour', method, status, count(*)::float8 FROM transactions
 WHERE type IN ('deposit', 'subscription_payment') AND created_at > now() - interval '1 hour'
 GROUP BY method, status
UNION ALL
SELECT 'payments_pending', method, '', count(*)::float8 FROM transactions
 WHERE status = 'pending' AND type IN ('deposit', 'subscription_payment') GROUP BY method
UNION ALL
SELECT 'maintenance', COALESCE(source, ''), '', enabled::int::float8 FROM maintenance_state
UNION ALL
SELECT 'watchdog_streak', '', '', panel_failures::float8 FROM maintenance_state
UNION ALL
SELECT 'watchdog_checked_at', '', '', EXTRACT(EPOCH FROM panel_checked_at)::float8
  FROM maintenance_state WHERE panel_checked_at IS NOT NULL
)SQL";

}  // namespace

std::vector<GaugeRow> read_host_gauges(pqxx::transaction_base& txn) {
    std::vector<GaugeRow> rows;
    for (const auto& r : txn.exec(kHostGauges)) {
        GaugeRow g;
        g.metric = r[0].as<std::string>();
        g.a = r[1].as<std::string>();
        g.b = r[2].as<std::string>();
        g.value = r[3].as<double>();
        rows.push_back(std::move(g));
    }
    return rows;
}

void ping(pqxx::transaction_base& txn) { exec_prepared(txn, "ping"); }

}  // namespace cabinet
