#pragma once
// Every SQL statement the pool runs, named once. A connection prepares each when it first
// runs it (db/prepared.hpp); check_statements() prepares them all once at start-up, so a
// typo fails the start, not the first request that needs it.
#include <string_view>
#include <vector>

namespace cabinet {

struct Statement {
    std::string_view name;
    std::string_view sql;
};

// All statements of the pool: the concatenation of the per-area tables below, each in its
// own file next to the repository that uses it.
const std::vector<Statement>& pool_statements();
std::vector<Statement> account_statements();       // statements.cpp
std::vector<Statement> catalog_statements();       // catalog_statements.cpp: plans, constructor, referral, payments
std::vector<Statement> subscription_statements();  // subscription_statements.cpp: trial, promo, link, traffic
std::vector<Statement> purchase_statements();      // purchase_statements.cpp: purchases, referral commission
std::vector<Statement> payment_statements();       // payment_statements.cpp: gateway payments and webhooks
std::vector<Statement> maintenance_statements();   // maintenance_statements.cpp: maintenance mode, audit log
std::vector<Statement> web_auth_statements();      // web_auth_statements.cpp: web accounts, tokens, brute-force counters
std::vector<Statement> support_statements();       // support_statements.cpp: support tickets and messages
std::vector<Statement> linking_statements();       // linking_statements.cpp: Telegram web login, linking, merge
std::vector<Statement> oauth_statements();         // oauth_statements.cpp: OAuth states and linked identities
std::vector<Statement> ledger_statements();        // ledger_statements.cpp: balance ledger, subscription history
std::vector<Statement> owner_settings_statements();  // owner_settings_statements.cpp: owner-level settings
std::vector<Statement> catalog_admin_statements();   // catalog_admin_statements.cpp: the owner's catalogue and texts
std::vector<Statement> promo_admin_statements();     // promo_admin_statements.cpp: the owner's promo codes
std::vector<Statement> customer_admin_statements();  // customer_admin_statements.cpp: the owner's customers
std::vector<Statement> overview_statements();        // overview_statements.cpp: the owner's Overview figures
std::vector<Statement> broadcast_statements();       // broadcast_statements.cpp: the owner's broadcasts and their sending

}  // namespace cabinet
