#pragma once
// The thread that keeps a process's in-memory copies honest between requests, on a
// connection of its own (one more PostgreSQL connection per process):
// - LISTEN catalog_changed: the CatalogCache is marked stale (cache/catalog_cache.hpp);
// - LISTEN accounts_changed: the named accounts are forgotten on the host, or all of them
//   for '*' (cache/account_cache.hpp, sql 0022);
// - LISTEN settings_changed: the owner-level settings are read again on this connection
//   and a new snapshot is swapped in (cache/live_settings.hpp, sql 0030), before any
//   later notification is handled.
// - LISTEN cabinet_jobs: the worker's job threads are woken (jobs/job_bell.hpp).
// Each is optional (the worker watches the settings and the jobs). Losing the connection
// marks the caches as not listening; it reconnects every second, and on connecting reads
// the settings again and rings the job bell, since a change may have been missed.
#include <atomic>
#include <string>
#include <thread>

#include "cache/account_cache.hpp"
#include "cache/catalog_cache.hpp"
#include "cache/live_settings.hpp"
#include "jobs/job_bell.hpp"

namespace cabinet {

struct Watched {
    const CatalogCache* catalog = nullptr;
    const AccountCache* accounts = nullptr;
    const LiveSettings* settings = nullptr;
    const jobs::JobBell* jobs = nullptr;
};

class ChangeListener {
public:
    // Starts the thread with every signal blocked (the pool's sigwait thread handles them).
    // `application_name` tells its connection apart in pg_stat_activity; the tests count
    // the pool's listeners by the default one.
    ChangeListener(std::string conninfo, Watched watched, std::string application_name = "cabinet-change-listener");
    ~ChangeListener();  // stops and joins within about a second
    ChangeListener(const ChangeListener&) = delete;
    ChangeListener& operator=(const ChangeListener&) = delete;

private:
    void run(std::stop_token stop);
    void listen_until_lost(std::stop_token stop, bool& in_outage);

    void set_listening(bool listening);

    const std::string conninfo_;
    const Watched watched_;
    const std::string application_name_;
    std::atomic<bool> settings_reload_failed_{false};  // set by the receiver, seen by the loop
    std::jthread thread_;
};

}  // namespace cabinet
