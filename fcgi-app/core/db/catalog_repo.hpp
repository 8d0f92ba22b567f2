#pragma once
// Catalogue reads: plans, constructor price list, sales, referral statistics, payment
// history. Plain structs out (domain/catalog.hpp); the SQL is in
// catalog_statements.cpp.
#include <pqxx/pqxx>

#include <vector>

#include "domain/account.hpp"
#include "domain/catalog.hpp"
#include "domain/pricing.hpp"

namespace cabinet {

// Sales not over yet (running or to come), for the cached catalogue.
std::vector<Sale> pending_sales(pqxx::transaction_base& txn);
// The catalogue's change counter (sql 0020).
int64_t catalog_version(pqxx::transaction_base& txn);

// Active plans that have at least one duration, by sort_order then id; durations by days.
std::vector<Plan> active_plans(pqxx::transaction_base& txn);
// Active constructor periods (by days) and packs (by gb, unlimited last).
ConstructorPriceList constructor_price_list(pqxx::transaction_base& txn);

ReferralStats referral_stats(pqxx::transaction_base& txn, int64_t user_id);
// The user's latest `limit` transactions, newest first.
std::vector<PaymentItem> recent_payments(pqxx::transaction_base& txn, int64_t user_id, int64_t limit);

}  // namespace cabinet
