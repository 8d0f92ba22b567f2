#include "db/db.hpp"

#include <libpq-events.h>
#include <libpq-fe.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "errors.hpp"

namespace cabinet {
namespace {

// libpq calls this for every result a statement produces (one per round trip here: no
// pipelining), on the connection's own thread: the counting costs two relaxed adds.
int count_result(PGEventId event, void* info, void* counters) {
    if (event != PGEVT_RESULTCREATE) return 1;
    const auto& c = *static_cast<const metrics::CallCounters*>(counters);
    c.calls.add();
    const auto status = PQresultStatus(static_cast<PGEventResultCreate*>(info)->result);
    if (status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE) c.errors.add();
    return 1;
}

// libpqxx 6 keeps the PGconn to itself; its large object class may hand it to a subclass.
struct RawConnection : pqxx::largeobject {
    static PGconn* of(const pqxx::dbtransaction& txn) { return raw_connection(txn); }
};

}  // namespace


std::string with_connection_defaults(const std::string& url, int64_t connect_timeout_s) {
    // What the sysadmin set already wins: in the URL, or in libpq's environment variables
    // (PGCONNECT_TIMEOUT: the keepalives have none), which a value in the URL would override.
    char* err = nullptr;
    PQconninfoOption* opts = PQconninfoParse(url.c_str(), &err);
    if (!opts) {  // libpq says what is wrong when it connects
        PQfreemem(err);
        return url;
    }
    std::set<std::string> given;
    for (PQconninfoOption* o = opts; o->keyword; ++o) {
        const char* from_env = o->envvar ? std::getenv(o->envvar) : nullptr;
        if ((o->val && *o->val) || (from_env && *from_env)) given.insert(o->keyword);
    }
    PQconninfoFree(opts);
    // A service (pg_service.conf) may set them too, below the URL: only the timeout is added,
    // as before keepalives were.
    const bool service = given.count("service") > 0;
    // A server that vanished without a word (powered off, cut off by a partition) would
    // hold a connection for the kernel's ~15 minutes of retransmissions: a pool thread
    // waiting on it, or a change listener missing every change meanwhile. Keepalives find
    // an idle one dead within a minute, tcp_user_timeout one with data unanswered for 30 s.
    // Both are ignored on a unix socket.
    const std::pair<const char*, std::string> defaults[] = {
        {"connect_timeout", std::to_string(connect_timeout_s)},
        {"keepalives", "1"},
        {"keepalives_idle", "30"},
        {"keepalives_interval", "10"},
        {"keepalives_count", "3"},
        {"tcp_user_timeout", "30000"},
    };
    const bool uri = url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
    std::string out = url;
    bool query = uri && url.find('?') != std::string::npos;
    for (const auto& [key, value] : defaults) {
        if (given.count(key) || (service && std::string_view(key) != "connect_timeout")) continue;
        out += uri ? (query ? "&" : "?") : " ";
        query = true;
        out += std::string(key) + "=" + value;
    }
    return out;
}

Db::Db(std::string conninfo, int64_t connect_timeout_s, int64_t statement_timeout_ms)
    : conninfo_(with_connection_defaults(conninfo, connect_timeout_s)), statement_timeout_ms_(statement_timeout_ms) {}

pqxx::connection& Db::conn() {
    if (conn_ && conn_->is_open()) return *conn_;
    conn_.reset();
    try {
        auto c = std::make_unique<PoolConnection>(conninfo_);
        c->set_variable("statement_timeout", std::to_string(statement_timeout_ms_));
        c->set_variable("TimeZone", "'UTC'");
        if (statements_) {
            pqxx::read_transaction txn(*c);
            if (!PQregisterEventProc(RawConnection::of(txn), count_result, "cabinet-metrics", statements_.get()))
                spdlog::warn("database statements of this thread are not counted: libpq refused the event procedure");
            txn.commit();
        }
        conn_ = std::move(c);
    } catch (const pqxx::broken_connection& e) {
        connect_failures_.add();
        // Once per outage and connection: a failover under load would otherwise write a line
        // for every request of every thread.
        if (!failing_) spdlog::warn("database connection failed (said again when it is back): {}", e.what());
        else spdlog::debug("database connection failed: {}", e.what());
        failing_ = true;
        throw unavailable("database unavailable");
    }
    // With several hosts in DATABASE_URL, where libpq found the writable one (after a
    // failover: the promoted replica).
    if (failing_) {
        const char* host = conn_->hostname();
        const char* port = conn_->port();
        spdlog::info("database connection is back, to {} port {}", host ? host : "?", port ? port : "?");
    }
    failing_ = false;
    return *conn_;
}

}  // namespace cabinet
