// cabinetctl jobs ...: the operator's view of the job queue (docs/decisions.md "Job queue").
//   jobs list [--status pending|running|done|dead] [--limit N]   newest first
//   jobs requeue ID                                             a dead job runs again from attempt 1
//   jobs requeue-paid                                           every paid order and referral bonus whose job died
//   jobs recheck-payments [--after-s S]                         ask the gateways about unpaid online payments now
//   jobs enqueue KIND JSON [--dedupe-key K] [--delay-s S]       prints the job's id
#include <pqxx/pqxx>

#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "jobs/job_queue.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_recheck.hpp"
#include "services/referral_commission.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr const char* kJobsUsage =
    "usage: cabinetctl jobs list [--status pending|running|done|dead] [--limit N]"
    " | requeue ID | requeue-paid | recheck-payments [--after-s S] | enqueue KIND JSON [--dedupe-key K] [--delay-s S]";

int64_t positive_id(const Args& args) {
    int64_t id = 0;
    if (args.size() < 2 || !parse_int64(args[1], id) || id <= 0) throw std::runtime_error(kJobsUsage);
    return id;
}

int list(pqxx::connection& conn, const Args& args) {
    const std::string status = option(args, "--status");
    if (!status.empty() && status != "pending" && status != "running" && status != "done" && status != "dead")
        throw std::runtime_error("--status must be pending, running, done or dead");
    int64_t limit = 50;
    if (!parse_int64(option(args, "--limit", "50"), limit) || limit < 1 || limit > 10000)
        throw std::runtime_error("--limit must be 1..10000");
    pqxx::nontransaction txn(conn);
    const pqxx::result r = txn.exec_params(
        "SELECT id, kind, status, attempts || '/' || max_attempts,"
        " to_char(run_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), coalesce(locked_by, '-'),"
        " coalesce(left(replace(last_error, E'\\n', ' '), 120), '-')"
        " FROM jobs WHERE ($1 = '' OR status = $1) ORDER BY id DESC LIMIT $2",
        status, limit);
    std::cout << "id\tkind\tstatus\tattempts\trun_at\tlocked_by\tlast_error\n";
    for (const auto& row : r) {
        for (pqxx::row::size_type i = 0; i < row.size(); ++i) std::cout << (i ? "\t" : "") << row[i].c_str();
        std::cout << "\n";
    }
    return 0;
}

int requeue(pqxx::connection& conn, const Args& args) {
    const int64_t id = positive_id(args);
    pqxx::work txn(conn);
    // last_error is kept: it tells the next reader why the job had died.
    const pqxx::result r = txn.exec_params(
        "UPDATE jobs SET status = 'pending', attempts = 0, run_at = now(), locked_by = NULL, locked_until = NULL,"
        " finished_at = NULL, updated_at = now() WHERE id = $1 AND status = 'dead' RETURNING id",
        id);
    if (r.empty()) {
        const pqxx::result found = txn.exec_params("SELECT status FROM jobs WHERE id = $1", id);
        if (found.empty()) throw std::runtime_error("no job " + std::to_string(id));
        throw std::runtime_error("job " + std::to_string(id) + " is " + found[0][0].c_str() + ", only a dead job can be requeued");
    }
    txn.exec0(std::string("NOTIFY ") + jobs::kNotifyChannel);
    txn.commit();
    std::cout << "requeued job " << id << "\n";
    return 0;
}

// The worker does this an hour after a fulfilment or a referral bonus dies; the operator
// who fixed the cause (the panel is back) need not wait.
int requeue_paid(const Settings& s) {
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);  // the pool's statements
    int64_t orders = 0, bonuses = 0, queued = 0;
    do {
        queued = db.write([](pqxx::work& txn) { return requeue_paid_orders(txn, 500, 0); });
        orders += queued;
    } while (queued > 0);
    do {
        queued = db.write([](pqxx::work& txn) { return requeue_referral_bonuses(txn, 500, 0); });
        bonuses += queued;
    } while (queued > 0);
    std::cout << "queued " << orders << " paid orders for fulfilment and " << bonuses << " referral bonuses\n";
    return 0;
}

// The worker's pass (services/payment_recheck.hpp) at once, for the payments pending at
// least --after-s seconds (PAYMENT_RECHECK_AFTER_S by default; 0: every unpaid one): after
// an outage of the notifications, the operator need not wait for the next heartbeat.
int recheck_payments(const Settings& s, const Args& args) {
    int64_t after_s = s.payment_recheck_after_s;
    if (!parse_int64(option(args, "--after-s", std::to_string(after_s)), after_s) || after_s < 0)
        throw std::runtime_error("--after-s must be a non-negative number of seconds");
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);  // the pool's statements
    const int64_t start = unix_now();
    int64_t queued = 0, batch = 0;
    do {
        batch = db.write([after_s, start](pqxx::work& txn) { return queue_payment_rechecks(txn, 500, after_s, start); });
        queued += batch;
    } while (batch > 0);
    std::cout << "queued " << queued << " payments to ask their gateway about\n";
    return 0;
}

int enqueue(pqxx::connection& conn, const Args& args) {
    if (args.size() < 3 || args[1].empty() || args[1][0] == '-') throw std::runtime_error(kJobsUsage);
    int64_t delay = 0;
    if (!parse_int64(option(args, "--delay-s", "0"), delay) || delay < 0)
        throw std::runtime_error("--delay-s must be a non-negative number of seconds");
    pqxx::work txn(conn);
    const int64_t id = jobs::enqueue(txn, args[1], args[2], option(args, "--dedupe-key"), delay);
    txn.commit();
    std::cout << id << "\n";
    return 0;
}

}  // namespace

int jobs(const Args& args) {
    if (args.empty()) throw std::runtime_error(kJobsUsage);
    const Settings s = load_or_die();
    if (args[0] == "requeue-paid") return requeue_paid(s);
    if (args[0] == "recheck-payments") return recheck_payments(s, args);
    pqxx::connection conn(s.database_url);
    if (args[0] == "list") return list(conn, args);
    if (args[0] == "requeue") return requeue(conn, args);
    if (args[0] == "enqueue") return enqueue(conn, args);
    throw std::runtime_error(kJobsUsage);
}

}  // namespace cabinet::ctl
