#pragma once
// Claim, run, complete or fail one job: the worker's loop body (tools/cabinetctl/worker.cpp).
//
// One run takes three steps on the runner's connection:
//  1. Claim, one autocommitted UPDATE: the oldest due `pending` job, or a `running` job
//     whose lease has expired (its worker died), picked with FOR UPDATE SKIP LOCKED so
//     concurrent workers never take the same row. The claim counts the attempt, stamps
//     `locked_by` and a lease `locked_until`. Counting here, outside the handler's
//     transaction, is what lets a job that kills its worker every time still reach
//     `dead`: a lost attempt stays counted, and a lost job with no attempts left is
//     marked dead instead of being claimed again.
//  2. Run: BEGIN, lock the job row again (only if it is still ours: same `locked_by` and
//     attempt number), call the handler in that transaction, mark the job `done`, COMMIT.
//     The handler's writes and "done" commit together; a crash before COMMIT leaves
//     nothing but the counted attempt. While the handler runs, its transaction holds the
//     row lock, so even after the lease passes no claim can take the row (SKIP LOCKED).
//     The lease therefore only has to cover the gap between steps 1 and 2 and bounds how
//     long a job lost with its worker waits: it can be short (seconds).
//  3. On a handler error (or an unknown kind): roll back, then one UPDATE puts the job
//     back to `pending` with `run_at` pushed by backoff_seconds(), or to `dead` when
//     attempts reached max_attempts; `last_error` keeps the message.
// A lost connection (pqxx::broken_connection, in_doubt_error) is rethrown: the caller
// reconnects, and the job, if not committed, is claimed again when its lease expires.
#include <pqxx/pqxx>

#include <cstdint>
#include <string>

#include "jobs/job_queue.hpp"

namespace cabinet::jobs {

inline constexpr int64_t kDefaultLeaseS = 10;
inline constexpr int64_t kMaxBackoffS = 3600;

// Delay before the next run after a failed attempt number `attempts` (1-based):
// 2^attempts seconds capped at kMaxBackoffS, plus up to 10 % of jitter (`jitter` in [0, 1))
// so jobs failing together do not retry in lockstep. Never above kMaxBackoffS.
int64_t backoff_seconds(int attempts, double jitter);

// What run_one() did, for logs and tests.
struct RunResult {
    enum class Kind { none, done, failed, dead, lost } kind = Kind::none;
    Job job;
    int64_t ms = 0;
    std::string error;
};

class JobRunner {
public:
    // `worker_id` names this thread in `locked_by` (host:pid:thread); unique per thread.
    JobRunner(pqxx::connection& conn, const Registry& registry, std::string worker_id,
              int64_t lease_s = kDefaultLeaseS);

    // Claims and runs one due job; false when nothing is ready. Logs the outcome.
    bool run_one();
    const RunResult& last() const { return last_; }

private:
    bool claim(Job& job, bool& gave_up);
    // Back to pending after the backoff, or at least `wait_at_least_s` (capped at
    // kMaxBackoffS) when the failing dependency said how long to wait; dead after the last attempt.
    void fail(const Job& job, const std::string& error, int64_t wait_at_least_s);

    pqxx::connection& conn_;
    const Registry& registry_;
    std::string worker_id_;
    int64_t lease_s_;
    RunResult last_;
};

}  // namespace cabinet::jobs
