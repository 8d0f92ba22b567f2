#pragma once
// The buyer ends an open payment of theirs (POST /api/cabinet/payments/{id}/cancel): a
// Stars invoice or a gateway checkout they will not pay. It ends here as `canceled` with
// its promo discount back (a trigger), and a Stars invoice is refused at Telegram's
// pre-checkout from then on. A gateway's page cannot be withdrawn (YooKassa cancels only
// captured-later payments): if the buyer pays it anyway, the notification, or the worker's
// look after the page's expiry (services/payment_recheck.hpp), credits it as a late payment.
#include <pqxx/pqxx>

#include <cstdint>

#include "db/db.hpp"

namespace cabinet {

// Under the buyer's lock. Throws 404 for a payment that is not the caller's, 409 for one
// that is not open (paid, already ended).
void cancel_own_payment(pqxx::work& txn, int64_t user_id, int64_t transaction_id);
// The same in one Db::transact of its own.
void cancel_own_payment(Db& db, int64_t user_id, int64_t transaction_id);

}  // namespace cabinet
