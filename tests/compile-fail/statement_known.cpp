// Must compile: the same call with a name the tables define (the control of
// statement_typo.cpp, so that test fails for the misspelling and nothing else).
#include "db/prepared.hpp"

void run(pqxx::transaction_base& txn) {
    cabinet::exec_prepared(txn, "account_by_id", 1);
}
