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
        spdlog::warn("database connection failed: {}", e.what());
        throw unavailable("database unavailable");
    }
    return *conn_;
}

}  // namespace cabinet
