#include "db/db.hpp"

#include <spdlog/spdlog.h>

#include "db/statements.hpp"
#include "errors.hpp"

namespace cabinet {

std::string with_connect_timeout(const std::string& url, int64_t seconds) {
    if (url.find("connect_timeout") != std::string::npos) return url;
    const std::string value = "connect_timeout=" + std::to_string(seconds);
    const bool uri = url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0;
    if (!uri) return url + " " + value;
    return url + (url.find('?') == std::string::npos ? "?" : "&") + value;
}

Db::Db(std::string conninfo, int64_t connect_timeout_s, int64_t statement_timeout_ms)
    : conninfo_(with_connect_timeout(conninfo, connect_timeout_s)), statement_timeout_ms_(statement_timeout_ms) {}

pqxx::connection& Db::conn() {
    if (conn_ && conn_->is_open()) return *conn_;
    conn_.reset();
    try {
        auto c = std::make_unique<pqxx::connection>(conninfo_);
        c->set_variable("statement_timeout", std::to_string(statement_timeout_ms_));
        c->set_variable("TimeZone", "'UTC'");
        for (const auto& s : pool_statements()) {
            const std::string name(s.name);
            c->prepare(name, std::string(s.sql));
            c->prepare_now(name);
        }
        conn_ = std::move(c);
    } catch (const pqxx::broken_connection& e) {
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
