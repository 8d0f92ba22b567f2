#pragma once
// The thread that keeps a process's catalogue copy honest between requests: LISTEN
// catalog_changed on a connection of its own (one more PostgreSQL connection per pool
// process), marking the CatalogCache stale on every notification, and on losing the
// connection (then reconnecting every second). See cache/catalog_cache.hpp.
#include <string>
#include <thread>

#include "cache/catalog_cache.hpp"

namespace cabinet {

class CatalogListener {
public:
    // Starts the thread with every signal blocked (the pool's sigwait thread handles them).
    CatalogListener(std::string conninfo, const CatalogCache& cache);
    ~CatalogListener();  // stops and joins within about a second
    CatalogListener(const CatalogListener&) = delete;
    CatalogListener& operator=(const CatalogListener&) = delete;

private:
    void run(std::stop_token stop);
    void listen_until_lost(std::stop_token stop, bool& in_outage);

    const std::string conninfo_;
    const CatalogCache& cache_;
    std::jthread thread_;
};

}  // namespace cabinet
