#include "services/payment_history.hpp"

#include "db/catalog_repo.hpp"

namespace cabinet {

std::vector<PaymentItem> payment_history(Db& db, int64_t user_id) {
    return db.read([&](pqxx::transaction_base& txn) { return recent_payments(txn, user_id, kPaymentHistoryLength); });
}

}  // namespace cabinet
