#pragma once
// An online payment (a gateway's page or a Telegram Stars invoice) opened without holding
// the buyer's row lock while a provider is asked (DESIGN: no outside call under a lock):
//   1. reserve_payment, in the buyer's locked transaction: the pending transaction, the
//      promo discount it holds, and what the provider will be asked;
//   2. open_checkout, once that transaction has committed and no lock is held: the
//      provider's page or invoice link, recorded on the payment in a short second
//      transaction. When the provider fails, the reservation is withdrawn (the pending row
//      deleted, with an account made for it in step 1) and the error goes on: 502, and
//      nothing is left behind, as when it was one transaction.
// So a second request of the same buyer (a balance purchase, a promo code) waits for step 1
// at most, never for a slow provider. A process that dies between the steps leaves a
// pending payment nobody can pay, which ends at its expiry like any unpaid one.
#include <pqxx/pqxx>

#include <cstdint>
#include <functional>
#include <string>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
#include "net/call_slots.hpp"
#include "payments/gateway.hpp"
#include "services/order.hpp"

namespace cabinet {

struct PaymentReservation {
    int64_t transaction_id = 0;
    int64_t user_id = 0;
    std::string method;             // "stars" or a gateway's id
    CheckoutRequest checkout;       // what a gateway is asked
    std::string invoice_title;      // what Telegram is asked (stars)
    int64_t stars = 0;
    // An account made in step 1 for this payment alone (a guest's): withdrawn with it.
    int64_t made_user_id = 0;
};

// Step 1, under the buyer's lock: a pending transaction for `order` (PAYMENT_PENDING_TTL_S),
// holding its promo discount. `return_page`: where a gateway sends the buyer back, with
// `payment=<id>` added (empty: the gateway's own default). 400 `method_unavailable` when
// `method` is neither "stars" nor an enabled gateway, before anything is written.
PaymentReservation reserve_payment(pqxx::work& txn, const Settings& s, const LockedAccount& locked, const Order& order,
                                   const std::string& method, const std::string& key, const std::string& return_page);

// Step 2, with no transaction open: asks the provider and records its page on the payment.
// `also` runs in that same short transaction (a guest purchase records its sign-in there).
// Returns the page (gateway) or invoice link (stars). On a provider's failure the
// reservation is withdrawn and the GatewayError rethrown.
std::string open_checkout(Db& db, const Settings& s, const CallSlots* slots, const PaymentReservation& r,
                          const std::function<void(pqxx::work&)>& also = {});

}  // namespace cabinet
