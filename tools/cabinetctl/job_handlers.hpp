#pragma once
// The job kinds the worker runs. A new kind is one `r.add(...)` line in make_registry().
// Handlers run concurrently on the worker's job threads, each inside its own job
// transaction (jobs/job_queue.hpp): they must not commit it, and must be thread-safe.
#include "cache/live_settings.hpp"
#include "jobs/job_queue.hpp"

namespace cabinet::ctl {

// Each run reads the settings in force when it starts (the owner may change them live).
jobs::Registry make_registry(const LiveSettings& settings);

}  // namespace cabinet::ctl
