#include "jobs/job_queue.hpp"

#include <stdexcept>
#include <string>

namespace cabinet::jobs {

// Plain exec_params (no prepared statements): producers call this on whatever connection
// and transaction they hold, pool thread or cabinetctl alike.
int64_t enqueue(pqxx::transaction_base& txn, std::string_view kind, std::string_view payload_json,
                std::string_view dedupe_key, int64_t delay_s) {
    if (kind.empty()) throw std::invalid_argument("job kind must not be empty");
    if (delay_s < 0) delay_s = 0;
    const std::string payload = payload_json.empty() ? std::string("{}") : std::string(payload_json);
    // ON CONFLICT DO NOTHING waits for a concurrent producer of the same key to finish,
    // so the SELECT below (a new snapshot under READ COMMITTED) sees its committed row.
    const pqxx::result r = txn.exec_params(
        "INSERT INTO jobs (kind, payload, dedupe_key, run_at)"
        " VALUES ($1, $2::jsonb, NULLIF($3, ''), now() + make_interval(secs => $4))"
        " ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
        std::string(kind), payload, std::string(dedupe_key), delay_s);
    if (r.empty()) {
        const pqxx::result existing =
            txn.exec_params("SELECT id FROM jobs WHERE dedupe_key = $1", std::string(dedupe_key));
        if (existing.empty()) throw std::runtime_error("job with dedupe key " + std::string(dedupe_key) + " vanished");
        return existing[0][0].as<int64_t>();
    }
    // Delivered at commit (and dropped on rollback); a delayed job is found by the
    // workers' periodic poll when it becomes due, so waking them now would be useless.
    if (delay_s == 0) txn.exec0(std::string("NOTIFY ") + kNotifyChannel);
    return r[0][0].as<int64_t>();
}

}  // namespace cabinet::jobs
