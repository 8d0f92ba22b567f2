#pragma once
// The durable job queue on PostgreSQL (DESIGN "Data rules": jobs table, FOR UPDATE SKIP
// LOCKED, retries with backoff, dead state, LISTEN/NOTIFY). Producers enqueue inside their
// own transaction, so "mark paid" and "enqueue fulfilment" commit together or not at all.
// How workers claim, run and retry jobs: job_runner.hpp.
#include <pqxx/pqxx>

#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace cabinet::jobs {

// Also named in sql 0024 enqueue_job, which sends the wake-up.
inline constexpr const char* kNotifyChannel = "cabinet_jobs";

// Attempts before a job is dead. The backoff doubles from 2 s to an hour (job_runner.hpp),
// so the default's 8 attempts are about 4 minutes of retries: enough for a hiccup. A job
// that carries money (a paid order's fulfilment, an autopay renewal) gets 20, about nine
// hours (68 minutes of doubling, then hourly): it outlives an outage of the panel that
// lasts a working day, instead of waiting dead for an operator. The jobs table's default
// is kDefaultAttempts too, for rows written by hand.
inline constexpr int kDefaultAttempts = 8;
inline constexpr int kMoneyJobAttempts = 20;

// How many rows of a "queue again the money jobs that died" statement got a new job (its
// `job` column; null where a live one was there already), each told to `say(row)`.
template <typename Say>
int64_t count_requeued(const pqxx::result& rows, Say say) {
    int64_t queued = 0;
    for (const auto& r : rows) {
        if (r["job"].is_null()) continue;
        ++queued;
        say(r);
    }
    return queued;
}

// Adds a job in the caller's transaction. With a non-empty `dedupe_key`, a second job with
// the same key is not added while the first is pending, running or done (the existing
// job's id is returned); a dead job sets its key free. Workers are woken by a NOTIFY that
// PostgreSQL delivers at commit. `delay_s` postpones the first run.
int64_t enqueue(pqxx::transaction_base& txn, std::string_view kind, std::string_view payload_json,
                std::string_view dedupe_key = {}, int64_t delay_s = 0, int max_attempts = kDefaultAttempts);

struct Job {
    int64_t id = 0;
    std::string kind;
    std::string payload;  // JSON text
    int attempts = 0;     // including this run
    int max_attempts = 0;
};

// A handler runs inside the transaction that marks its job done: its database writes and
// the job's completion commit together, so a job that dies midway (crash, SIGKILL) leaves
// nothing behind and runs again. Anything outside the database it touches (the panel)
// must be written with absolute values so a rerun converges. Throwing fails the run: it
// is retried with exponential backoff, and after max_attempts the job is dead with the
// last error kept.
using Handler = std::function<void(pqxx::work& txn, const Job& job)>;

class Registry {
public:
    void add(std::string kind, Handler handler) { handlers_[std::move(kind)] = std::move(handler); }
    const Handler* find(const std::string& kind) const {
        auto it = handlers_.find(kind);
        return it == handlers_.end() ? nullptr : &it->second;
    }

private:
    std::map<std::string, Handler> handlers_;
};

}  // namespace cabinet::jobs
