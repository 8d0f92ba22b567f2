#pragma once
// How the worker's job threads learn that a job is due without each listening on a
// connection of its own: the worker's one change listener hears NOTIFY cabinet_jobs and
// rings; the threads wait on the bell up to their poll interval. PostgreSQL wakes every
// listening backend of the database at each notification whatever its channel, so each
// job thread listening itself cost two or more backend wake-ups per account change of the
// shop (docs/decisions.md "The purchase mix's 50 %").
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cabinet::jobs {

class JobBell {
public:
    // Wakes every waiting thread; a thread not waiting yet sees it at its next wait.
    void ring() const {
        {
            const std::lock_guard lock(mutex_);
            ++rung_;
        }
        changed_.notify_all();
    }

    // What the bell has rung so far: a thread reads it before it looks for work, then
    // waits from it, so that a ring in between is not lost.
    uint64_t rung() const {
        const std::lock_guard lock(mutex_);
        return rung_;
    }

    // Until the bell rings after `seen`, or `timeout` passes.
    void wait(uint64_t seen, std::chrono::milliseconds timeout) const {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, timeout, [&] { return rung_ != seen; });
    }

private:
    mutable std::mutex mutex_;
    mutable std::condition_variable changed_;
    mutable uint64_t rung_ = 0;
};

}  // namespace cabinet::jobs
