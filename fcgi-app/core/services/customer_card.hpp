#pragma once
// A customer's card in the owner's cabinet (GET /api/admin/customers/{id}; docs/api.md
// "Customers"): the list's row, then everything about them an owner looks at to fix a
// problem — logins, subscription, the ledger's newest rows, payments, referrals, promo codes
// used, the support thread, and what the audit log says about them. Each part is one
// index range on the customer's id (db/customer_admin_statements.cpp).
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

#include "db/db.hpp"

namespace cabinet {

// How many of each list the card shows (newest first).
inline constexpr int64_t kCardRows = 20;

// The card as JSON text; nullopt when there is no such customer.
std::optional<std::string> customer_card_json(pqxx::transaction_base& txn, int64_t user_id);
std::optional<std::string> customer_card_json(Db& db, int64_t user_id);  // a read of its own

}  // namespace cabinet
