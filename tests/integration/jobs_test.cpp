// The job queue against the running worker of the test stack: a job runs once and soon,
// failures back off and end dead, a requeue revives, a SIGKILL mid-job leaves exactly one
// effect, many jobs over two worker processes each run exactly once, and the worker's one
// listener wakes its job threads long before their poll.
#include <boost/test/unit_test.hpp>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <thread>

#include "jobs/job_queue.hpp"
#include "support.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

// A mark no other test (or earlier run against a kept database) uses.
std::string fresh_mark(const std::string& what) {
    static int n = 0;
    return what + "-" + std::to_string(cabinet::unix_now()) + "-" + std::to_string(getpid()) + "-" + std::to_string(++n);
}

// `cabinetctl jobs enqueue`; the JSON goes in single quotes, so it must not contain any.
int64_t enqueue(const std::string& kind, const std::string& json, const std::string& extra = {}) {
    const auto [rc, out] = run(ctl("jobs enqueue " + kind + " '" + json + "' " + extra));
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    return std::stoll(out);
}

std::string job_where(int64_t id) { return "FROM jobs WHERE id = " + std::to_string(id); }
bool job_is(int64_t id, const std::string& cond) { return count("SELECT count(*) " + job_where(id) + " AND " + cond) == 1; }
int64_t attempts(int64_t id) { return count("SELECT attempts " + job_where(id)); }
int64_t marks(const std::string& mark) {
    return count("SELECT count(*) FROM events WHERE kind = 'job_mark' AND payload->>'mark' = '" + mark + "'");
}
// Due now, and the worker told so (else it would find the job at its next poll).
void due_now(int64_t id, const std::string& also_set = {}) {
    exec("UPDATE jobs SET run_at = now()" + also_set + " WHERE id = " + std::to_string(id) + "; NOTIFY cabinet_jobs");
}

// SIGKILL to this stack's worker (the child of its supervisor; [l] keeps pkill's own shell
// out) while `id` runs; the supervisor restarts the worker a second later.
void kill_worker_while_running(int64_t id) {
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'running'"); }, 10000));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // inside the handler
    const std::string supervisor = "$(cat '" + env("STACK_DIR") + "/run/worker.pid')";
    const auto [rc, out] = run("pkill -KILL -P " + supervisor + " -f 'cabinetct[l] worker'");
    BOOST_REQUIRE_MESSAGE(rc == 0, out);
    BOOST_TEST(job_is(id, "status = 'running' AND attempts = 1"));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(jobs)

BOOST_AUTO_TEST_CASE(enqueued_job_runs_once_within_seconds) {
    const std::string mark = fresh_mark("once");
    const int64_t id = enqueue("noop", R"({"mark":")" + mark + R"("})");
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'done'"); }, 10000));
    BOOST_TEST(attempts(id) == 1);
    BOOST_TEST(job_is(id, "finished_at IS NOT NULL AND locked_by IS NULL AND last_error IS NULL"));
    BOOST_TEST(marks(mark) == 1);
}

BOOST_AUTO_TEST_CASE(same_dedupe_key_gives_one_job) {
    const std::string mark = fresh_mark("dedupe");
    const std::string json = R"({"mark":")" + mark + R"("})";
    const int64_t a = enqueue("noop", json, "--dedupe-key " + mark);
    const int64_t b = enqueue("noop", json, "--dedupe-key " + mark);
    BOOST_TEST(a == b);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE dedupe_key = '" + mark + "'") == 1);
    BOOST_REQUIRE(wait_until([&] { return job_is(a, "status = 'done'"); }, 10000));
    BOOST_TEST(enqueue("noop", json, "--dedupe-key " + mark) == a);  // also once it is done
    BOOST_TEST(marks(mark) == 1);
}

BOOST_AUTO_TEST_CASE(failing_job_backs_off_dies_and_requeue_revives_it) {
    const std::string mark = fresh_mark("fail");
    // Delayed, so the test sets max_attempts before the first run.
    const int64_t id = enqueue("noop", R"({"fail":true,"mark":")" + mark + R"("})", "--delay-s 3600");
    due_now(id, ", max_attempts = 3");
    for (int n = 1; n <= 2; ++n) {
        BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'pending' AND attempts = " + std::to_string(n)); }, 10000));
        // run_at and updated_at are stamped by the same UPDATE: the gap is the backoff.
        const std::string backoff = "extract(epoch FROM run_at - updated_at)";
        BOOST_TEST(job_is(id, backoff + " >= " + std::to_string(1 << n) + " AND " + backoff + " <= 3600"));
        BOOST_TEST(job_is(id, "run_at > now() AND last_error LIKE '%failing as the payload asks%'"));
        due_now(id);  // skip the wait
    }
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'dead'"); }, 10000));
    BOOST_TEST(attempts(id) == 3);
    BOOST_TEST(job_is(id, "finished_at IS NOT NULL AND locked_by IS NULL"));
    BOOST_TEST(marks(mark) == 0);  // each failed run rolled its mark back

    const auto [rc_list, listed] = run(ctl("jobs list --status dead --limit 1000"));
    BOOST_TEST(rc_list == 0);
    BOOST_CHECK_MESSAGE(listed.find(std::to_string(id) + "\tnoop\tdead\t3/3") != std::string::npos, listed);

    // The operator fixes the cause, then requeues: attempts start again, the job runs.
    exec("UPDATE jobs SET payload = jsonb_build_object('mark', '" + mark + "') WHERE id = " + std::to_string(id));
    const auto [rc, out] = run(ctl("jobs requeue " + std::to_string(id)));
    BOOST_CHECK_MESSAGE(rc == 0, out);
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'done'"); }, 10000));
    BOOST_TEST(attempts(id) == 1);
    BOOST_TEST(marks(mark) == 1);
    const auto [rc2, out2] = run(ctl("jobs requeue " + std::to_string(id)));
    BOOST_TEST(rc2 != 0);
    BOOST_CHECK_MESSAGE(out2.find("only a dead job") != std::string::npos, out2);
}

// Telegram's flood control answers 429 with "retry after N": the job's next attempt waits
// those N seconds rather than its 2 s backoff (which would only be refused again), then
// delivers.
BOOST_AUTO_TEST_CASE(telegrams_retry_after_sets_the_next_attempt) {
    const std::string text = fresh_mark("flood");
    BOOST_REQUIRE(http_url("POST", fake_url("/__fake/fail"), {"Content-Type: application/json"},
                           R"({"service":"telegram","count":1,"status":429,"body":{"ok":false,"error_code":429,)"
                           R"("description":"Too Many Requests: retry after 40","parameters":{"retry_after":40}}})").status == 200);
    const int64_t mark = journal_mark();
    const int64_t id = enqueue("send_report", R"({"topic":"alerts","text":")" + text + R"("})");
    const bool waited = wait_until([&] { return job_is(id, "status = 'pending' AND attempts = 1"); }, 10000);
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_REQUIRE(waited);
    BOOST_TEST(job_is(id, "extract(epoch FROM run_at - updated_at) >= 40"));
    due_now(id);  // the test does not wait the 40 s
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'done'"); }, 10000));
    BOOST_TEST(bot_messages_since(mark, env("REPORT_CHAT_ID"), 77).size() == 2u);  // the refused call, then the delivered one
}

// A dead job sets its key free: the producer's next try queues the work again (the autopay
// scan after an outage), while the dead row stays for the operator.
BOOST_AUTO_TEST_CASE(a_dead_job_sets_its_dedupe_key_free) {
    const std::string mark = fresh_mark("deadkey");
    const int64_t id = enqueue("noop", R"({"fail":true,"mark":")" + mark + R"("})", "--dedupe-key " + mark + " --delay-s 3600");
    due_now(id, ", max_attempts = 1");
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'dead'"); }, 10000));
    BOOST_TEST(job_is(id, "dedupe_key IS NULL AND last_error LIKE '%failing as the payload asks%'"));
    const int64_t again = enqueue("noop", R"({"mark":")" + mark + R"("})", "--dedupe-key " + mark);
    BOOST_TEST(again != id);
    BOOST_REQUIRE(wait_until([&] { return job_is(again, "status = 'done'"); }, 10000));
    BOOST_TEST(marks(mark) == 1);
}

BOOST_AUTO_TEST_CASE(unknown_kind_dies_with_a_clear_error_and_the_worker_goes_on) {
    const int64_t id = enqueue("no_such_kind", "{}", "--delay-s 3600");
    due_now(id, ", max_attempts = 2");
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'pending' AND attempts = 1"); }, 10000));
    due_now(id);
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'dead'"); }, 10000));
    BOOST_TEST(job_is(id, "last_error = 'no handler for job kind ''no_such_kind'''"));
    const std::string mark = fresh_mark("after-unknown");
    const int64_t next = enqueue("noop", R"({"mark":")" + mark + R"("})");
    BOOST_TEST(wait_until([&] { return job_is(next, "status = 'done'"); }, 10000));
    BOOST_TEST(marks(mark) == 1);
}

BOOST_AUTO_TEST_CASE(sigkill_mid_job_runs_it_again_with_one_effect) {
    const std::string mark = fresh_mark("kill");
    const int64_t id = enqueue("noop", R"({"sleep_ms":3000,"mark":")" + mark + R"("})");
    kill_worker_while_running(id);
    // The supervisor restarts the worker after 1 s; the lease (10 s) frees the job.
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'done'"); }, 30000));
    BOOST_TEST(attempts(id) == 2);
    BOOST_TEST(job_is(id, "last_error LIKE 'attempt 1 did not finish%'"));
    BOOST_TEST(marks(mark) == 1);
    BOOST_TEST(wait_for_status("/health/deep", 200));
}

BOOST_AUTO_TEST_CASE(job_that_always_kills_its_worker_ends_dead) {
    const std::string mark = fresh_mark("crasher");
    const int64_t id = enqueue("noop", R"({"sleep_ms":3000,"mark":")" + mark + R"("})", "--delay-s 3600");
    due_now(id, ", max_attempts = 1");
    kill_worker_while_running(id);
    // Its one attempt is spent; rather than wait for the lease, let it expire now. (The
    // dead worker's transaction is gone, so this UPDATE does not wait for the row lock.)
    exec("UPDATE jobs SET locked_until = now() - interval '1 second' WHERE id = " + std::to_string(id));
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'dead'"); }, 10000));
    BOOST_TEST(attempts(id) == 1);
    BOOST_TEST(job_is(id, "last_error LIKE 'attempt 1 did not finish%' AND finished_at IS NOT NULL"));
    BOOST_TEST(marks(mark) == 0);
    BOOST_TEST(wait_for_status("/health/deep", 200));
}

BOOST_AUTO_TEST_CASE(sigterm_lets_the_job_in_hand_finish) {
    const std::string mark = fresh_mark("term");
    const int64_t id = enqueue("noop", R"({"sleep_ms":1500,"mark":")" + mark + R"("})");
    BOOST_REQUIRE(wait_until([&] { return job_is(id, "status = 'running'"); }, 10000));
    stack_svc("stop", "worker");  // returns once the worker has exited
    BOOST_TEST(job_is(id, "status = 'done' AND attempts = 1"));
    BOOST_TEST(marks(mark) == 1);
    stack_svc("start", "worker");
}

BOOST_AUTO_TEST_CASE(job_threads_reconnect_after_a_database_restart) {
    stack_svc("stop", "postgres");
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    stack_svc("start", "postgres");
    const std::string mark = fresh_mark("after-restart");
    const int64_t id = enqueue("noop", R"({"mark":")" + mark + R"("})");
    BOOST_TEST(wait_until([&] { return job_is(id, "status = 'done'"); }, 10000));
    BOOST_TEST(marks(mark) == 1);
}

BOOST_AUTO_TEST_CASE(many_jobs_over_two_workers_each_run_exactly_once) {
    // A second worker process beside the stack's, in its own process group to stop it.
    const std::string log = env("STACK_DIR") + "/log/worker-extra.log";
    const auto [rc, out] = run("STACK_DIR='" + env("STACK_DIR") + "' setsid '" + env("CABINET_STACK") +
                               "' ctl worker --concurrency 3 >'" + log + "' 2>&1 & echo $!");
    BOOST_REQUIRE(rc == 0);
    const pid_t extra = static_cast<pid_t>(std::stol(out));
    // Started, its stop signals blocked for its own handling: a SIGTERM before that (the
    // stack's worker alone can finish the batch in under two seconds) killed it outright,
    // without its "worker stopped", and failed the last check.
    BOOST_TEST(wait_until([&] { return run("grep -q 'worker started' '" + log + "'").first == 0; }, 10000));

    const std::string prefix = fresh_mark("bulk") + "-";
    std::vector<int64_t> ids;
    {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::work txn(conn);
        for (int i = 0; i < 100; ++i)
            ids.push_back(cabinet::jobs::enqueue(txn, "noop", R"({"mark":")" + prefix + std::to_string(i) + R"("})"));
        txn.commit();
    }
    const std::string in_batch = "FROM jobs WHERE id BETWEEN " + std::to_string(ids.front()) + " AND " +
                                 std::to_string(ids.back()) + " AND payload->>'mark' LIKE '" + prefix + "%'";
    BOOST_TEST(count("SELECT count(*) " + in_batch) == 100);
    BOOST_TEST(wait_until([&] { return count("SELECT count(*) " + in_batch + " AND status = 'done'") == 100; }, 30000));
    BOOST_TEST(count("SELECT count(*) " + in_batch + " AND attempts <> 1") == 0);
    const std::string events = "FROM events WHERE kind = 'job_mark' AND payload->>'mark' LIKE '" + prefix + "%'";
    BOOST_TEST(count("SELECT count(*) " + events) == 100);
    BOOST_TEST(count("SELECT count(DISTINCT payload->>'mark') " + events) == 100);

    kill(-extra, SIGTERM);
    BOOST_TEST(wait_until([&] { return kill(-extra, 0) != 0; }, 10000));
    const auto [rc_log, tail] = run("tail -n 3 '" + log + "'");
    BOOST_CHECK_MESSAGE(tail.find("worker stopped") != std::string::npos, tail);
}

BOOST_AUTO_TEST_CASE(the_listener_wakes_the_job_threads_and_a_stop_does_not_wait_for_their_poll) {
    // The stack's worker out of the way, one whose job threads poll once a minute: a job
    // enqueued while they wait can only be run within seconds by the listener's bell.
    stack_svc("stop", "worker");
    const std::string log = env("STACK_DIR") + "/log/worker-slow-poll.log";
    const auto [rc, out] = run("STACK_DIR='" + env("STACK_DIR") + "' setsid '" + env("CABINET_STACK") +
                               "' ctl worker --concurrency 2 --poll-ms 60000 >>'" + log + "' 2>&1 & echo $!");
    BOOST_REQUIRE(rc == 0);
    const pid_t worker = static_cast<pid_t>(std::stol(out));
    BOOST_TEST(wait_until(  // not REQUIRE: the stack's worker is started again below
        [&] { return count("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'cabinet-worker-listener'") == 1; },
        10000));
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // both threads found nothing and wait

    // Within a tenth of the poll interval, however slow the machine.
    const std::string mark = fresh_mark("bell");
    const int64_t id = enqueue("noop", R"({"mark":")" + mark + R"("})");
    BOOST_TEST(wait_until([&] { return job_is(id, "status = 'done'"); }, 6000));
    BOOST_TEST(marks(mark) == 1);

    // SIGTERM rings the bell too: the waiting threads end now, not at their next poll.
    kill(-worker, SIGTERM);
    BOOST_TEST(wait_until([&] { return kill(-worker, 0) != 0; }, 6000));
    if (kill(-worker, 0) == 0) kill(-worker, SIGKILL);
    stack_svc("start", "worker");
}

BOOST_AUTO_TEST_SUITE_END()
