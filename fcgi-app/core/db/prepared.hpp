#pragma once
// The pool's statements (db/statements.hpp) are prepared on a connection when it first
// runs each of them, not all at connect. A PostgreSQL backend keeps a prepared statement's
// plans for the connection's life: all ~270 of them cost each pool backend about 3 MB,
// and one thread runs a few dozen; libpqxx's copy of every definition cost each pool
// process 0.4 MB more (docs/decisions.md, "Statements prepared when first run").
// Run the pool's statements through these, never through libpqxx's members of the same
// names: a statement not told to the connection yet is unknown to libpqxx.
//
//   const pqxx::row r = exec_prepared1(txn, "account_by_id", id);
//
// The name is a StatementName (db/statement_name.hpp): a literal no statement table defines
// fails to compile.
//
// check_statements() keeps what preparing everything at connect gave: a statement that no
// longer fits the schema stops the start instead of failing its first request.
#include <pqxx/pqxx>

#include <string>
#include <utility>
#include <vector>

#include "db/statement_name.hpp"

namespace cabinet {

// The connection Db opens: it remembers which pool statements it has given libpqxx.
// Every transaction that runs a pool statement is on one of these.
class PoolConnection : public pqxx::connection {
public:
    explicit PoolConnection(const std::string& conninfo);

    // Gives libpqxx the definition of `name` if this connection has not yet (libpqxx then
    // prepares it on the server at its first run).
    void know(StatementName name);

private:
    std::vector<bool> known_;  // by StatementName::index()
};

inline void know_statement(pqxx::transaction_base& txn, StatementName name) {
    static_cast<PoolConnection&>(txn.conn()).know(name);
}

template <class... Args>
pqxx::result exec_prepared(pqxx::transaction_base& txn, StatementName name, Args&&... args) {
    know_statement(txn, name);
    return txn.exec_prepared(name.c_str(), std::forward<Args>(args)...);
}

// Exactly one row, or pqxx::unexpected_rows.
template <class... Args>
pqxx::row exec_prepared1(pqxx::transaction_base& txn, StatementName name, Args&&... args) {
    know_statement(txn, name);
    return txn.exec_prepared1(name.c_str(), std::forward<Args>(args)...);
}

// No rows, or pqxx::unexpected_rows.
template <class... Args>
pqxx::result exec_prepared0(pqxx::transaction_base& txn, StatementName name, Args&&... args) {
    know_statement(txn, name);
    return txn.exec_prepared0(name.c_str(), std::forward<Args>(args)...);
}

// Prepares every pool statement on a connection of its own, then closes it (and the
// backend lets the plans go). Throws std::runtime_error naming the first that fails; a
// database that does not answer is only logged (the process starts and waits for it, as
// its connections do).
void check_statements(const std::string& conninfo);

}  // namespace cabinet
