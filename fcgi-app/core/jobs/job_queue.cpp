#include "jobs/job_queue.hpp"

#include <stdexcept>
#include <string>

namespace cabinet::jobs {

// Plain exec_params (no prepared statements): producers call this on whatever connection
// and transaction they hold, pool thread or cabinetctl alike.
int64_t enqueue(pqxx::transaction_base& txn, std::string_view kind, std::string_view payload_json,
                std::string_view dedupe_key, int64_t delay_s, int max_attempts) {
    if (kind.empty()) throw std::invalid_argument("job kind must not be empty");
    if (max_attempts < 1) throw std::invalid_argument("a job needs at least one attempt");
    if (delay_s < 0) delay_s = 0;
    const std::string payload = payload_json.empty() ? std::string("{}") : std::string(payload_json);
    // sql 0038 enqueue_job: the insert and, for a job due now, the workers' wake-up at commit
    // (dropped on rollback). ON CONFLICT DO NOTHING waits for a concurrent producer of the
    // same key to finish, so the SELECT below (a new snapshot under READ COMMITTED) sees its
    // committed row.
    const pqxx::row r = txn.exec_params1("SELECT enqueue_job($1, $2::jsonb, $3, $4, $5)", std::string(kind), payload,
                                         std::string(dedupe_key), delay_s, max_attempts);
    if (!r[0].is_null()) return r[0].as<int64_t>();
    const pqxx::result existing = txn.exec_params("SELECT id FROM jobs WHERE dedupe_key = $1", std::string(dedupe_key));
    if (existing.empty()) throw std::runtime_error("job with dedupe key " + std::string(dedupe_key) + " vanished");
    return existing[0][0].as<int64_t>();
}

}  // namespace cabinet::jobs
