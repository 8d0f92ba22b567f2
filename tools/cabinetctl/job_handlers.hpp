#pragma once
// The job kinds the worker runs. A new kind is one `r.add(...)` line in make_registry().
// Handlers run concurrently on the worker's job threads, each inside its own job
// transaction (jobs/job_queue.hpp): they must not commit it, and must be thread-safe.
#include "config/settings.hpp"
#include "jobs/job_queue.hpp"

namespace cabinet::ctl {

jobs::Registry make_registry(const Settings& settings);

}  // namespace cabinet::ctl
