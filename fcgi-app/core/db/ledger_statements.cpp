#include "db/statements.hpp"

namespace cabinet {

// Money and subscription history (db/ledger_repo.hpp, services/subscription_grant.cpp).
std::vector<Statement> ledger_statements() {
    return {
        {"ledger_move", "SELECT ledger_move($1, $2, $3, $4, $5)"},
        {"insert_subscription_history",
         "INSERT INTO subscription_history (user_id, source, transaction_id, days, expire_before, expire_after)"
         " VALUES ($1, $2, $3, $4, to_timestamp($5), to_timestamp($6))"},
    };
}

}  // namespace cabinet
