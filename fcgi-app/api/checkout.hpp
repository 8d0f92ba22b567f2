#pragma once
// An online gateway payment for an order, as POST /purchase opens it: shared with the guest
// purchase (api/guest_purchase.cpp), which buys the same way for an account it found or made.
#include <pqxx/pqxx>

#include <string>

#include "app/context.hpp"
#include "db/accounts_repo.hpp"
#include "services/order.hpp"

namespace cabinet::api {

struct OnlinePayment {
    int64_t transaction_id = 0;
    std::string redirect_url;  // the provider's payment page
};

// A pending transaction for `order` (PAYMENT_PENDING_TTL_S) and the provider's payment page,
// in `txn` under the buyer's lock. The buyer comes back to `return_page` with
// `payment=<transaction id>` added (empty: the gateway's own default). 400 when `method` is
// not an enabled gateway; a gateway failure throws GatewayError and the transaction rolls back.
OnlinePayment open_online_payment(Exchange& ex, pqxx::work& txn, const LockedAccount& locked, const Order& order,
                                  const std::string& method, const std::string& key, const std::string& return_page);

}  // namespace cabinet::api
