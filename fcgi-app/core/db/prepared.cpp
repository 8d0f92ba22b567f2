#include "db/prepared.hpp"

#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include <spdlog/spdlog.h>

#include "db/statements.hpp"

namespace cabinet {
namespace {

// The definition of each generated name (StatementName::index()), found by name once. The
// generated list and pool_statements() come from the same tables, so this only fails if the
// generator misread one: then the process stops at start (check_statements) with its name.
const std::vector<const Statement*>& definitions() {
    static const std::vector<const Statement*> by_index = [] {
        std::unordered_map<std::string_view, const Statement*> by_name;
        for (const auto& s : pool_statements()) by_name.emplace(s.name, &s);
        std::vector<const Statement*> v(statement_list::kCount, nullptr);
        for (size_t i = 0; i < v.size(); ++i) {
            const auto it = by_name.find(statement_list::kNames[i]);
            if (it != by_name.end()) v[i] = it->second;
        }
        return v;
    }();
    return by_index;
}

}  // namespace

PoolConnection::PoolConnection(const std::string& conninfo)
    : pqxx::connection(conninfo), known_(statement_list::kCount, false) {}

void PoolConnection::know(StatementName name) {
    if (known_[name.index()]) return;
    const Statement* def = definitions()[name.index()];
    if (!def) throw std::logic_error(std::string("statement without a definition: ") + name.c_str());
    prepare(name.c_str(), std::string(def->sql));
    known_[name.index()] = true;
}

void check_statements(const std::string& conninfo) {
    for (size_t i = 0; i < statement_list::kCount; ++i)
        if (!definitions()[i])
            throw std::runtime_error("statement " + std::string(statement_list::kNames[i]) +
                                     " is listed (cmake/statement_names.cmake) but has no definition");
    if (statement_list::kCount != pool_statements().size())
        throw std::runtime_error("the generated list names " + std::to_string(statement_list::kCount) + " of " +
                                 std::to_string(pool_statements().size()) + " statements (cmake/statement_names.cmake)");
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
