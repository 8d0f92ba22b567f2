#include "jobs/job_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <random>

#include "jobs/job_status.hpp"
#include "errors.hpp"

namespace cabinet::jobs {
namespace {

// Step 1 (see the header). The lost-job subquery comes first so a crashed job is picked
// up before newer work; COALESCE evaluates the second subquery only when the first finds
// nothing. In SET, column names are the row's values before the update.
constexpr const char* kClaimSql = R"SQL(
UPDATE jobs SET
  status = CASE WHEN status = 'running' AND attempts >= max_attempts THEN 'dead' ELSE 'running' END,
  attempts = CASE WHEN status = 'running' AND attempts >= max_attempts THEN attempts ELSE attempts + 1 END,
  locked_by = CASE WHEN status = 'running' AND attempts >= max_attempts THEN NULL ELSE $1 END,
  locked_until = CASE WHEN status = 'running' AND attempts >= max_attempts THEN NULL
                      ELSE now() + make_interval(secs => $2) END,
  finished_at = CASE WHEN status = 'running' AND attempts >= max_attempts THEN now() END,
  dedupe_key = CASE WHEN status = 'running' AND attempts >= max_attempts THEN NULL ELSE dedupe_key END,
  last_error = CASE WHEN status = 'running'
                    THEN 'attempt ' || attempts || ' did not finish (worker stopped or lost its connection)'
                    ELSE last_error END,
  updated_at = now()
WHERE id = COALESCE(
  (SELECT id FROM jobs WHERE status = 'running' AND locked_until < now()
    ORDER BY locked_until LIMIT 1 FOR UPDATE SKIP LOCKED),
  (SELECT id FROM jobs WHERE status = 'pending' AND run_at <= now()
    ORDER BY run_at LIMIT 1 FOR UPDATE SKIP LOCKED))
RETURNING id, kind, payload::text, attempts, max_attempts, status
)SQL";

// Step 2: the row is still ours (a claim after our lease expired changes locked_by and
// attempts). A plain FOR UPDATE, not SKIP LOCKED: another worker's claim statement may
// hold the row for a moment (PostgreSQL keeps the lock on a row FOR UPDATE locked and then
// rejected on recheck until that statement's transaction ends); we wait, then recheck.
constexpr const char* kLockSql =
    "SELECT 1 FROM jobs WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND status = 'running' FOR UPDATE";

constexpr const char* kDoneSql =
    "UPDATE jobs SET status = 'done', finished_at = now(), locked_by = NULL, locked_until = NULL,"
    " updated_at = now() WHERE id = $1";

// Step 3, only while the attempt is still ours. A job that dies sets its dedupe key free
// (here and in the claim): the producer may queue the same work again (job_queue.hpp).
constexpr const char* kFailSql = R"SQL(
UPDATE jobs SET
  status = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,
  run_at = CASE WHEN attempts >= max_attempts THEN run_at ELSE now() + make_interval(secs => $4) END,
  finished_at = CASE WHEN attempts >= max_attempts THEN now() END,
  dedupe_key = CASE WHEN attempts >= max_attempts THEN NULL ELSE dedupe_key END,
  last_error = $5, locked_by = NULL, locked_until = NULL, updated_at = now()
WHERE id = $1 AND locked_by = $2 AND attempts = $3 AND status = 'running'
RETURNING status
)SQL";

// last_error is TEXT (UTF-8): cut long messages on a character boundary.
std::string clip(std::string s, size_t max = 2000) {
    if (s.size() <= max) return s;
    size_t n = max;
    while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    s.resize(n);
    return s + "...";
}

double jitter01() {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.0, 1.0)(rng);
}

int64_t elapsed_ms(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int64_t backoff_seconds(int attempts, double jitter) {
    const int exp = std::max(attempts, 0);
    const int64_t base = exp >= 12 ? kMaxBackoffS : std::min<int64_t>(int64_t{1} << exp, kMaxBackoffS);
    jitter = std::clamp(jitter, 0.0, 1.0);
    const auto extra = static_cast<int64_t>(static_cast<double>(base) * 0.1 * jitter);
    return std::min(base + extra, kMaxBackoffS);
}

JobRunner::JobRunner(pqxx::connection& conn, const Registry& registry, std::string worker_id, int64_t lease_s)
    : conn_(conn), registry_(registry), worker_id_(std::move(worker_id)), lease_s_(std::max<int64_t>(lease_s, 1)) {}

bool JobRunner::claim(Job& job, bool& gave_up) {
    pqxx::nontransaction txn(conn_);
    const pqxx::result r = txn.exec_params(kClaimSql, worker_id_, lease_s_);
    if (r.empty()) return false;
    job.id = r[0][0].as<int64_t>();
    job.kind = r[0][1].c_str();
    job.payload = r[0][2].c_str();
    job.attempts = r[0][3].as<int>();
    job.max_attempts = r[0][4].as<int>();
    gave_up = state_from_text<JobStatus>(r[0][5].c_str()) == JobStatus::dead;
    return true;
}

bool JobRunner::run_one() {
    last_ = {};
    Job job;
    bool gave_up = false;
    if (!claim(job, gave_up)) return false;
    last_.job = job;
    if (gave_up) {
        last_.kind = RunResult::Kind::dead;
        last_.error = "no attempt finished";
        spdlog::error("job {} {}: dead, none of its {} attempts finished (does it crash the worker?)", job.id,
                      job.kind, job.attempts);
        return true;
    }

    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    int64_t wait_at_least_s = 0;  // the failed dependency's own "retry after"
    if (const Handler* handler = registry_.find(job.kind); !handler) {
        error = "no handler for job kind '" + job.kind + "'";
    } else {
        try {
            pqxx::work txn(conn_, "job");
            if (txn.exec_params(kLockSql, job.id, worker_id_, job.attempts).empty()) {
                last_.kind = RunResult::Kind::lost;
                spdlog::warn("job {} {} attempt {}: lease lost before it started, skipped", job.id, job.kind,
                             job.attempts);
                return true;
            }
            (*handler)(txn, job);
            txn.exec_params0(kDoneSql, job.id);
            txn.commit();
        } catch (const pqxx::broken_connection&) {
            spdlog::error("job {} {} attempt {}: database connection lost; it runs again after its lease", job.id,
                          job.kind, job.attempts);
            throw;
        } catch (const pqxx::in_doubt_error&) {
            spdlog::error("job {} {} attempt {}: commit outcome unknown; if not committed it runs again", job.id,
                          job.kind, job.attempts);
            throw;
        } catch (const std::exception& e) {
            error = *e.what() ? e.what() : "handler failed";
            if (const auto* hint = dynamic_cast<const RetryAfterHint*>(&e)) wait_at_least_s = hint->retry_after_s();
        } catch (...) {
            error = "handler threw a non-standard exception";
        }
    }

    if (error.empty()) {
        last_.kind = RunResult::Kind::done;
        last_.ms = elapsed_ms(t0);
        spdlog::info("job {} {} attempt {}/{}: ok in {} ms", job.id, job.kind, job.attempts, job.max_attempts,
                     last_.ms);
        return true;
    }
    last_.ms = elapsed_ms(t0);
    last_.error = error;
    fail(job, clip(error), wait_at_least_s);
    return true;
}

void JobRunner::fail(const Job& job, const std::string& error, int64_t wait_at_least_s) {
    const int64_t delay = std::max(backoff_seconds(job.attempts, jitter01()), std::min(wait_at_least_s, kMaxBackoffS));
    pqxx::nontransaction txn(conn_);
    const pqxx::result r = txn.exec_params(kFailSql, job.id, worker_id_, job.attempts, delay, error);
    if (r.empty()) {
        last_.kind = RunResult::Kind::lost;
        spdlog::warn("job {} {} attempt {}: error in {} ms: {} (lease already taken over)", job.id, job.kind,
                     job.attempts, last_.ms, error);
    } else if (state_from_text<JobStatus>(r[0][0].c_str()) == JobStatus::dead) {
        last_.kind = RunResult::Kind::dead;
        spdlog::error("job {} {} attempt {}/{}: error in {} ms: {}; dead", job.id, job.kind, job.attempts,
                      job.max_attempts, last_.ms, error);
    } else {
        last_.kind = RunResult::Kind::failed;
        spdlog::warn("job {} {} attempt {}/{}: error in {} ms: {}; retry in {} s", job.id, job.kind, job.attempts,
                     job.max_attempts, last_.ms, error, delay);
    }
}

}  // namespace cabinet::jobs
