#include "db/statements.hpp"

namespace cabinet {

// The payment webhooks (api/payment_webhook.cpp); marking paid is confirm_payment's
// (purchase_statements.cpp).
std::vector<Statement> payment_statements() {
    return {
        // A provider's payment whose metadata lost our id: found by the id it gave us.
        {"payment_by_provider_id", "SELECT id FROM transactions WHERE provider = $1 AND provider_payment_id = $2"},
        // The provider canceled the payment ($2): only a pending, unpaid transaction of that
        // provider ends, and not when it is bound to another payment of it (the buyer
        // may have paid a second attempt).
        {"mark_payment_canceled",
         "UPDATE transactions SET status = 'canceled', failure_reason = $4"
         " WHERE id = $1 AND type = 'subscription_payment' AND status = 'pending' AND paid_at IS NULL"
         "  AND coalesce(provider, $3) = $3 AND coalesce(provider_payment_id, $2) = $2"},
    };
}

}  // namespace cabinet
