#pragma once
// The customer's payment history (GET /api/cabinet/payments): their latest transactions,
// newest first, as many as SPEC "Limits" shows. Read without a transaction.
#include <cstdint>
#include <vector>

#include "db/db.hpp"
#include "domain/catalog.hpp"

namespace cabinet {

inline constexpr int64_t kPaymentHistoryLength = 20;

// The user's latest kPaymentHistoryLength transactions, newest first.
std::vector<PaymentItem> payment_history(Db& db, int64_t user_id);

}  // namespace cabinet
