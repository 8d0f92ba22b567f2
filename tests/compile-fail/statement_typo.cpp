// Must NOT compile: a statement name that no table of fcgi-app/core/db/*statements.cpp
// defines (ctest statement_name_typo expects the compiler's refusal, db/statement_name.hpp).
#include "db/prepared.hpp"

void run(pqxx::transaction_base& txn) {
    cabinet::exec_prepared(txn, "acount_by_id", 1);  // sic: account_by_id misspelt
}
