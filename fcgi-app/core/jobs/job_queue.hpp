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

// Adds a job in the caller's transaction. With a non-empty `dedupe_key`, a second job with
// the same key is not added (the existing job's id is returned). Workers are woken by a
// NOTIFY that PostgreSQL delivers at commit. `delay_s` postpones the first run.
int64_t enqueue(pqxx::transaction_base& txn, std::string_view kind, std::string_view payload_json,
                std::string_view dedupe_key = {}, int64_t delay_s = 0);

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
