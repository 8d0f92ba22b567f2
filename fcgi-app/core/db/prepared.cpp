#include "db/prepared.hpp"

#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "db/statements.hpp"

namespace cabinet {
namespace {

// Name -> index in pool_statements(), built once, read-only afterwards.
const std::unordered_map<std::string_view, size_t>& statement_index() {
    static const std::unordered_map<std::string_view, size_t> index = [] {
        std::unordered_map<std::string_view, size_t> m;
        const auto& all = pool_statements();
        for (size_t i = 0; i < all.size(); ++i) m.emplace(all[i].name, i);
        return m;
    }();
    return index;
}

}  // namespace

PoolConnection::PoolConnection(const std::string& conninfo)
    : pqxx::connection(conninfo), known_(pool_statements().size(), false) {}

void PoolConnection::know(const std::string& name) {
    const auto& index = statement_index();
    const auto it = index.find(name);
    if (it == index.end()) throw std::logic_error("not a pool statement: " + name);
    if (known_[it->second]) return;
    prepare(name, std::string(pool_statements()[it->second].sql));
    known_[it->second] = true;
}

void check_statements(const std::string& conninfo) {
    try {
        pqxx::connection c(conninfo);
        for (const auto& s : pool_statements()) {
            const std::string name(s.name);
            c.prepare(name, std::string(s.sql));
            try {
                c.prepare_now(name);
            } catch (const pqxx::sql_error& e) {
                throw std::runtime_error("statement " + name +
                                         " does not fit the database (are its migrations applied?): " + e.what());
            }
        }
    } catch (const pqxx::broken_connection& e) {
        spdlog::warn("statements not checked at start, the database does not answer: {}", e.what());
    }
}

}  // namespace cabinet
