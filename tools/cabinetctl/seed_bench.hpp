#pragma once
// The benchmark's users (cabinetctl seed-demo --bench-users N): Telegram ids 900000001..N
// with the history a shop of that size has, written set-based inside PostgreSQL.
#include <pqxx/pqxx>

#include <cstdint>
#include <string>

namespace cabinet::ctl {

struct BenchSeedResult {
    int64_t added = 0;      // bench users created by this run (0 on a repeat)
    int64_t topped_up = 0;  // existing bench users whose balance was brought back up
};

// In `txn`: every missing bench user up to `count` with its subscription, ~20 completed
// transactions and their ledger rows, subscription history, referrals and registration
// event; bench users already there keep their data and only get their balance topped up.
// `panel_base_url` makes the subscription links (the mock panel's /sub/ pages).
BenchSeedResult seed_bench_users(pqxx::work& txn, int64_t count, const std::string& panel_base_url);

}  // namespace cabinet::ctl
