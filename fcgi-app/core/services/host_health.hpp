#pragma once
// What GET /metrics and GET /health ask PostgreSQL (api/metrics.cpp, api/health.cpp): the
// host's gauges that live there (db/host_gauges_repo.hpp) and whether it answers at all.
// Both are reads without a transaction; both throw what the connection throws.
#include <vector>

#include "db/db.hpp"
#include "db/host_gauges_repo.hpp"

namespace cabinet {

std::vector<GaugeRow> host_gauges(Db& db);

// SELECT 1 on this thread's connection.
void ping_database(Db& db);

}  // namespace cabinet
