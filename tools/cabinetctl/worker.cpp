// cabinetctl worker: the background process. The main thread stamps the heartbeat that
// GET /health/deep reads (SPEC: once a minute, fresh when <= 180 s old) and waits for
// SIGTERM/SIGINT; N job threads run the durable job queue (jobs/job_runner.hpp), each on
// its own PostgreSQL connection, woken by the change listener's LISTEN cabinet_jobs (one
// listening connection for the whole worker: jobs/job_bell.hpp) and polling as a fallback
// (a NOTIFY can be missed while reconnecting, and delayed or retried jobs fall due
// without one). With each heartbeat the main thread also queues a look at the gateway for
// online payments still unpaid (PAYMENT_RECHECK_AFTER_S), ends unpaid invoices past their
// time (PAYMENT_PENDING_TTL_S) and queues again a paid order whose fulfilment job died. With LANDING_DIR set, one more thread keeps the landing page
// in step with its data (services/landing_publish.hpp): it renders every --landing-every
// seconds and rewrites the file only when the page changed, so an owner's edit, a new plan
// or price (from the bot, cabinetctl or SQL alike) is on `/` within seconds. On a stop
// signal each job thread finishes the job in hand, then exits. The owner-level settings a
// job or the landing reads are the live snapshot (cache/live_settings.hpp), kept current by
// a change listener as in the pool, so `cabinetctl settings set` needs no worker restart.
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

#include "cache/change_listener.hpp"
#include "cache/live_settings.hpp"
#include "cache/redis.hpp"
#include "cache/worker_heartbeat.hpp"
#include "commands.hpp"
#include "db/db.hpp"
#include "db/overview_repo.hpp"
#include "job_handlers.hpp"
#include "jobs/job_bell.hpp"
#include "jobs/job_runner.hpp"
#include "log/logging.hpp"
#include "metrics/exposition.hpp"
#include "metrics/textfile.hpp"
#include "services/landing_publish.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_recheck.hpp"
#include "services/referral_commission.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

struct JobOptions {
    int64_t concurrency = 2;
    int64_t lease_s = jobs::kDefaultLeaseS;
    int64_t poll_ms = 1000;
};

int64_t int_option(const Args& args, const std::string& name, int64_t fallback, int64_t lo, int64_t hi) {
    int64_t v = fallback;
    const std::string text = option(args, name, std::to_string(fallback));
    if (!parse_int64(text, v) || v < lo || v > hi)
        throw std::runtime_error(name + " must be a number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

std::string host_and_pid() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    return std::string(host) + ":" + std::to_string(getpid());
}

// Sleeps up to `ms`, waking early when asked to stop.
void nap(const std::atomic<bool>& stop, int64_t ms) {
    for (int64_t waited = 0; waited < ms && !stop; waited += 100)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
}

// One job thread: (re)connect, drain ready jobs, wait for the bell or the poll interval,
// repeat. Any database error drops the connection and reconnects a second later;
// a job interrupted that way is claimed again when its lease expires.
// What the job threads did since the worker started, for METRICS_TEXTFILE_DIR.
struct JobCounts {
    std::atomic<uint64_t> done{0}, failed{0}, dead{0}, lost{0};
    void count(jobs::RunResult::Kind k) {
        using K = jobs::RunResult::Kind;
        auto& c = k == K::done ? done : k == K::failed ? failed : k == K::dead ? dead : lost;
        if (k != K::none) c.fetch_add(1, std::memory_order_relaxed);
    }
};

void job_thread(const Settings& s, const jobs::Registry& registry, const JobOptions& o, const jobs::JobBell& bell,
                std::string id, JobCounts& counts, const std::atomic<bool>& stop) {
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    bool failing = false;
    while (!stop) {
        try {
            jobs::JobRunner runner(db.conn(), registry, id, o.lease_s);
            if (failing) spdlog::info("job thread {}: database connection is back", id);
            failing = false;
            while (true) {
                // Read before `stop` and the queue: a ring after this (a new job, or the stop,
                // which is set before its ring) ends the wait below at once.
                const uint64_t seen = bell.rung();
                if (stop) break;
                if (runner.run_one()) {
                    counts.count(runner.last().kind);
                    continue;
                }
                bell.wait(seen, std::chrono::milliseconds(o.poll_ms));
            }
        } catch (const std::exception& e) {
            if (!failing) spdlog::warn("job thread {}: {}; reconnecting", id, e.what());
            else spdlog::debug("job thread {}: {}", id, e.what());
            failing = true;
            db.reset();
            nap(stop, 1000);
        }
    }
}

// The landing page thread: publish, wait, repeat; a failure is logged once until it heals.
void landing_thread(const LiveSettings& live, int64_t every_s, const std::atomic<bool>& stop) {
    const Settings& s = live.env();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    bool failing = false;
    while (!stop) {
        try {
            const LandingPublished out = publish_landing(db, *live.current());
            if (out.changed) spdlog::info("landing page written: {}", out.path);
            if (failing) spdlog::info("landing page: working again");
            failing = false;
        } catch (const std::exception& e) {
            if (!failing) spdlog::warn("landing page not written: {}", e.what());
            failing = true;
            db.reset();
        }
        nap(stop, every_s * 1000);
    }
}

// Ends unpaid invoices past their time; a database outage only waits for the next beat.
void expire_payments_once(Db& db) {
    try {
        const int64_t ended = expire_pending_payments(db, 500);
        if (ended > 0) spdlog::info("{} unpaid invoices expired", ended);
    } catch (const std::exception& e) {
        spdlog::warn("expiring unpaid invoices: {}", e.what());
        db.reset();
    }
}

// The Overview's rollups (sql 0047) get a row per counted change; each minute the rows of a
// bucket are summed into one, so the owner's Overview keeps reading a few thousand rows.
void compact_overview_once(Db& db) {
    try {
        db.write([](pqxx::work& txn) { compact_overview_rollups(txn); });
    } catch (const std::exception& e) {
        spdlog::warn("compacting the overview's rollups: {}", e.what());
        db.reset();
    }
}

// Online payments still waiting for a notification: their gateway is asked by a job each
// (services/payment_recheck.hpp), so a paid order is fulfilled when every notification was lost.
void queue_payment_rechecks_once(Db& db, const LiveSettings& live) {
    try {
        const int64_t after_s = live.current()->payment_recheck_after_s;
        const int64_t queued = db.write([after_s](pqxx::work& txn) { return queue_payment_rechecks(txn, 100, after_s, unix_now()); });
        if (queued > 0) spdlog::info("{} unpaid online payments to ask their gateway about", queued);
    } catch (const std::exception& e) {
        spdlog::warn("queueing payment rechecks: {}", e.what());
        db.reset();
    }
}

// Queues again, an hour after their job died, the paid orders nothing fulfils
// (services/payment_confirmation.hpp) and the referral bonuses nothing grants
// (services/referral_commission.hpp).
// Each in its own transaction: a failure of one does not hold back the other.
void requeue_what_is_owed_once(Db& db) {
    const auto requeue = [&db](const char* what, int64_t (*fn)(pqxx::transaction_base&, int64_t, int64_t)) {
        try {
            db.write([fn](pqxx::work& txn) { return fn(txn, 100, jobs::kMaxBackoffS); });
        } catch (const std::exception& e) {
            spdlog::warn("queueing {} again: {}", what, e.what());
            db.reset();
        }
    };
    requeue("paid orders", requeue_paid_orders);
    requeue("referral bonuses", requeue_referral_bonuses);
}

// cabinet_worker.prom, written with each heartbeat (docs/operations.md "Metrics and logs").
void write_worker_metrics(const Settings& s, const JobCounts& counts, int64_t job_threads, int64_t started_at,
                          bool heartbeat_stored) {
    if (s.metrics_textfile_dir.empty()) return;
    metrics::Exposition out;
    out.family("cabinet_worker_up", "gauge", "1 while the worker runs (the file's age tells when it stopped)");
    out.sample("cabinet_worker_up", {}, 1);
    out.family("cabinet_worker_started_timestamp_seconds", "gauge", "When this worker process started (unix time)");
    out.sample("cabinet_worker_started_timestamp_seconds", {}, static_cast<double>(started_at));
    out.family("cabinet_worker_last_beat_timestamp_seconds", "gauge", "The worker's last heartbeat (unix time)");
    out.sample("cabinet_worker_last_beat_timestamp_seconds", {}, static_cast<double>(unix_now()));
    out.family("cabinet_worker_heartbeat_stored", "gauge", "1 when the last heartbeat reached Redis");
    out.sample("cabinet_worker_heartbeat_stored", {}, heartbeat_stored ? 1 : 0);
    out.family("cabinet_worker_job_threads", "gauge", "Job threads of the worker");
    out.sample("cabinet_worker_job_threads", {}, static_cast<double>(job_threads));
    out.family("cabinet_worker_jobs_total", "counter", "Job runs of this worker process by outcome (done, failed: retried later, dead: gave up, lost: its lease expired)");
    out.sample("cabinet_worker_jobs_total", {{"outcome", "done"}}, static_cast<double>(counts.done.load()));
    out.sample("cabinet_worker_jobs_total", {{"outcome", "failed"}}, static_cast<double>(counts.failed.load()));
    out.sample("cabinet_worker_jobs_total", {{"outcome", "dead"}}, static_cast<double>(counts.dead.load()));
    out.sample("cabinet_worker_jobs_total", {{"outcome", "lost"}}, static_cast<double>(counts.lost.load()));
    metrics::write_textfile(s.metrics_textfile_dir, "cabinet_worker.prom", out.text());
}

}  // namespace

int worker(const Args& args) {
    const LiveSettings live(load_or_die());
    const Settings& s = live.env();  // infrastructure; owner-level values come from live.current()
    setup_logging(s.log_level, "cabinet-worker", s.log_format);
    for (const auto& notice : s.notices) spdlog::warn("settings: {}", notice);
    const int64_t interval_s = int_option(args, "--heartbeat-every", 60, 1, 3600);
    JobOptions o;
    o.concurrency = int_option(args, "--concurrency", 2, 0, 64);  // 0: heartbeat only
    o.lease_s = int_option(args, "--lease-s", jobs::kDefaultLeaseS, 1, 3600);
    o.poll_ms = int_option(args, "--poll-ms", 1000, 50, 60000);
    const int64_t landing_every_s = int_option(args, "--landing-every", 5, 1, 3600);
    const std::string conninfo = with_connection_defaults(s.database_url, s.db_connect_timeout_s);
    check_statements(conninfo);  // a statement that no longer fits the schema stops here
    live.reload_once(conninfo);
    const jobs::Registry registry = make_registry(live);

    // Blocked before the job threads start, so they inherit the mask and the signals reach
    // the main thread's sigtimedwait() only.
    sigset_t stop_signals;
    sigemptyset(&stop_signals);
    sigaddset(&stop_signals, SIGTERM);
    sigaddset(&stop_signals, SIGINT);
    sigprocmask(SIG_BLOCK, &stop_signals, nullptr);

    std::atomic<bool> stop{false};
    const jobs::JobBell bell;
    JobCounts counts;
    const int64_t started_at = unix_now();
    std::vector<std::thread> threads;
    const std::string base_id = host_and_pid();
    for (int64_t i = 1; i <= o.concurrency; ++i)
        threads.emplace_back(job_thread, std::cref(s), std::cref(registry), std::cref(o), std::cref(bell),
                             base_id + ":" + std::to_string(i), std::ref(counts), std::cref(stop));

    if (!s.landing_dir.empty()) threads.emplace_back(landing_thread, std::cref(live), landing_every_s, std::cref(stop));
    // After the signal mask: its thread blocks every signal itself. Stopped before `live`.
    const ChangeListener listener(conninfo, {.settings = &live, .jobs = &bell}, "cabinet-worker-listener");

    Redis redis(parse_redis_url(s.redis_url), s.redis_timeout_ms);
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    spdlog::info("worker started: heartbeat every {} s, {} job threads, lease {} s, poll {} ms", interval_s,
                 o.concurrency, o.lease_s, o.poll_ms);
    while (true) {
        const bool beat = stamp_worker_heartbeat(redis);
        if (beat) spdlog::debug("heartbeat");
        else spdlog::warn("heartbeat not stored: redis unavailable");
        write_worker_metrics(s, counts, o.concurrency, started_at, beat);
        queue_payment_rechecks_once(db, live);
        expire_payments_once(db);
        requeue_what_is_owed_once(db);
        compact_overview_once(db);
        const timespec wait{static_cast<time_t>(interval_s), 0};
        const int sig = sigtimedwait(&stop_signals, nullptr, &wait);
        if (sig == SIGTERM || sig == SIGINT) break;
    }
    spdlog::info("worker stopping: job threads finish the job in hand");
    stop = true;
    bell.ring();  // the job threads waiting on it see `stop` now, not at their next poll
    for (auto& t : threads) t.join();
    spdlog::info("worker stopped");
    return 0;
}

}  // namespace cabinet::ctl
