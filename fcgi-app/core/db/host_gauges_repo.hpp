#pragma once
// The host's gauges that live in PostgreSQL, read by /metrics at scrape time in one
// statement (api/metrics.cpp): the job queue, payments by method and status, maintenance
// and the watchdog's streak. Cheap except the payments' count, one pass over the
// transactions table per scrape (docs/decisions.md "Metrics and logs").
#include <pqxx/pqxx>

#include <string>
#include <vector>

namespace cabinet {

struct GaugeRow {
    std::string metric;  // jobs, jobs_oldest_due_s, payments, maintenance, watchdog_streak, watchdog_checked_at
    std::string a, b;    // labels: jobs: status; payments: method, status; maintenance: source
    double value = 0;
};

std::vector<GaugeRow> read_host_gauges(pqxx::transaction_base& txn);

// SELECT 1: the database answers (GET /health); throws what the connection throws.
void ping(pqxx::transaction_base& txn);

}  // namespace cabinet
