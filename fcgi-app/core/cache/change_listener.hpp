#pragma once
// The thread that keeps a process's in-memory copies honest between requests, on a
// connection of its own (one more PostgreSQL connection per pool process):
// - LISTEN catalog_changed: the CatalogCache is marked stale (cache/catalog_cache.hpp);
// - LISTEN accounts_changed: the named accounts are forgotten on the host, or all of them
//   for '*' (cache/account_cache.hpp, sql 0022).
// Losing the connection marks both as not listening; it reconnects every second.
#include <string>
#include <thread>

#include "cache/account_cache.hpp"
#include "cache/catalog_cache.hpp"

namespace cabinet {

class ChangeListener {
public:
    // Starts the thread with every signal blocked (the pool's sigwait thread handles them).
    ChangeListener(std::string conninfo, const CatalogCache& catalog, const AccountCache& accounts);
    ~ChangeListener();  // stops and joins within about a second
    ChangeListener(const ChangeListener&) = delete;
    ChangeListener& operator=(const ChangeListener&) = delete;

private:
    void run(std::stop_token stop);
    void listen_until_lost(std::stop_token stop, bool& in_outage);

    void set_listening(bool listening);

    const std::string conninfo_;
    const CatalogCache& catalog_;
    const AccountCache& accounts_;
    std::jthread thread_;
};

}  // namespace cabinet
