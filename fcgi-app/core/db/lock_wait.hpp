#pragma once
// A statement that waited for a row lock and gave up: past the statement timeout
// (query_canceled) or refused at once (lock_not_available, NOWAIT). Batch jobs that meet a
// user some grant holds leave that user to their next run instead of failing the run.
#include <pqxx/pqxx>

namespace cabinet {

inline bool lock_wait_ended(const pqxx::sql_error& e) {
    return e.sqlstate() == "57014" || e.sqlstate() == "55P03";
}

}  // namespace cabinet
