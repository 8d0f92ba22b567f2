#pragma once
// The bench users' panel users, written into the mock panel's snapshot file (the
// MOCK_PANEL_STATE of tools/mock-panel, format "cabinet-mock-panel/1"; see
// docs/decisions.md "A million bench users"). Creating a million users through the mock's
// API would cost a million requests; the snapshot is its own load format. The mock must be
// stopped while this runs (it reads the file at start and rewrites it).
#include <pqxx/pqxx>

#include <cstdint>
#include <string>

namespace cabinet::ctl {

// Adds a panel user for every bench subscription (Telegram ids up to 900000000 + count)
// whose panel uuid the file lacks; users already in the file, bench or not, are kept as they
// are. Writes the file (atomically) only when something was added. Returns how many.
int64_t add_bench_panel_users(pqxx::connection& conn, int64_t count, const std::string& path);

}  // namespace cabinet::ctl
