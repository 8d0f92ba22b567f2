#pragma once
// A thread's own PostgreSQL connection (libpqxx objects never cross threads).
// Connects lazily, prepares each pool statement when it first runs (db/prepared.hpp), and
// reconnects after the server went away without restarting the process. The conninfo is
// libpq's, passed through: with several hosts and target_session_attrs=read-write each
// reconnect walks the list to the writable one (docs/operations.md, "More than one host").
#include <pqxx/pqxx>

#include <memory>
#include <string>
#include <utility>

#include "db/prepared.hpp"
#include "metrics/counter.hpp"

namespace cabinet {

class Db {
public:
    Db(std::string conninfo, int64_t connect_timeout_s, int64_t statement_timeout_ms);

    // The live connection; connects first if needed. Throws ApiError 503 when it can't.
    pqxx::connection& conn();
    // Drop the connection (after pqxx::broken_connection); the next conn() reconnects.
    void reset() { conn_.reset(); }

    // Commits attempted so far by write() and transact(): a request compares it before and
    // after to know whether it may have written (caches of the caller are then forgotten).
    uint64_t commits() const { return commits_; }

    // Counts every statement of this connection (each a round trip; BEGIN and COMMIT too)
    // and the ones that failed, with a libpq event on each result, and failed connects.
    // Set once by a pool thread (metrics/pool_metrics.hpp); unset, nothing is counted.
    void count_into(metrics::CallCounters statements, metrics::Counter connect_failures) {
        statements_ = std::make_unique<metrics::CallCounters>(statements);  // libpq keeps its address
        connect_failures_ = connect_failures;
    }

    // Run `fn(txn)` in one transaction (pqxx::work) and commit. A connection that broke
    // before the commit means nothing was written, so that case is retried once on a new
    // connection; an unknown commit outcome (in_doubt_error) is never retried.
    // `fn` must therefore touch only the database.
    template <class Fn>
    auto write(Fn&& fn) {
        return with_retry([&](pqxx::connection& c) { return in_work(c, fn); });
    }

    // One transaction for panel-first writes: `fn` may call the panel while it holds row
    // locks, and a repeated panel call is the caller's decision, not ours, so `fn` never
    // runs twice. Only a connection found broken by BEGIN, before `fn` ran (the server
    // restarted since this thread's last request), is replaced and BEGIN sent again.
    template <class Fn>
    auto transact(Fn&& fn) {
        bool began = false;
        try {
            return in_work(conn(), fn, &began);
        } catch (const pqxx::broken_connection&) {
            reset();
            if (began) throw;
        }
        return in_work(conn(), fn);
    }

    // Read-only statements without BEGIN/COMMIT round trips.
    template <class Fn>
    auto read(Fn&& fn) {
        return with_retry([&](pqxx::connection& c) {
            pqxx::nontransaction txn(c);
            return fn(txn);
        });
    }

private:
    // fn(txn) in a pqxx::work, committed when fn returns. `*began` is set once BEGIN went
    // through (libpqxx sends it when the transaction object is made).
    template <class Fn>
    auto in_work(pqxx::connection& c, Fn& fn, bool* began = nullptr) {
        pqxx::work txn(c);
        if (began) *began = true;
        if constexpr (std::is_void_v<decltype(fn(txn))>) {
            fn(txn);
            ++commits_;  // counted before: a commit whose outcome is unknown may have written
            txn.commit();
        } else {
            auto result = fn(txn);
            ++commits_;
            txn.commit();
            return result;
        }
    }

    template <class Fn>
    auto with_retry(Fn&& fn) {
        try {
            return fn(conn());
        } catch (const pqxx::in_doubt_error&) {
            reset();
            throw;
        } catch (const pqxx::broken_connection&) {
            reset();
        }
        try {
            return fn(conn());
        } catch (const pqxx::broken_connection&) {
            reset();
            throw;
        }
    }

    std::string conninfo_;
    int64_t statement_timeout_ms_;
    std::unique_ptr<metrics::CallCounters> statements_;  // before conn_: outlives it
    metrics::Counter connect_failures_;
    std::unique_ptr<PoolConnection> conn_;
    uint64_t commits_ = 0;
    bool failing_ = false;  // the last connect failed: its warning was logged
};

// conninfo (a URI or key=value DATABASE_URL) with what every connection of ours needs and
// the URL does not set itself: connect_timeout, and TCP keepalives with tcp_user_timeout,
// so that a server gone silent is noticed within a minute (db.cpp says why).
std::string with_connection_defaults(const std::string& url, int64_t connect_timeout_s);

}  // namespace cabinet
