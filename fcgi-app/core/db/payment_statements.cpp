#include "db/statements.hpp"

namespace cabinet {

// The payment webhooks (api/payment_webhook.cpp); marking paid is confirm_payment's
// (purchase_statements.cpp).
std::vector<Statement> payment_statements() {
    return {
        // Ours or not: a notification for a payment id we never stored is refused before the
        // provider is asked about it (api/payment_webhook.cpp).
        {"payment_by_provider_id", "SELECT id FROM transactions WHERE provider = $1 AND provider_payment_id = $2"},
        // The provider canceled the payment ($2): only a pending, unpaid transaction of that
        // provider ends, and not when it is bound to another payment of it (the buyer
        // may have paid a second attempt).
        {"mark_payment_canceled",
         "UPDATE transactions SET status = 'canceled', failure_reason = $4"
         " WHERE id = $1 AND type = 'subscription_payment' AND status = 'pending' AND paid_at IS NULL"
         "  AND coalesce(provider, $3) = $3 AND coalesce(provider_payment_id, $2) = $2"},
        // Online payments to ask their gateway about (services/payment_recheck.hpp), at most
        // $1, each stamped as asked now: pending ones begun at least $2 seconds ago and not
        // asked for as long, and those expired in the last day (or canceled by the buyer,
        // whose payment page stayed payable until then) not asked since they expired;
        // none asked at or after unix time $3 (a pass that loops over batches takes each once).
        // SKIP LOCKED: a row a buyer's payment holds is taken at the next pass, and this never
        // waits on the buyer's lock that writers take first.
        {"due_payment_rechecks",
         "WITH due AS MATERIALIZED ("
         "  SELECT id FROM transactions"
         "  WHERE paid_at IS NULL AND provider_payment_id IS NOT NULL AND provider IN ('yookassa', 'cryptobot')"
         "    AND expires_at > now() - interval '1 day'"
         "    AND ((status = 'pending' AND created_at <= now() - make_interval(secs => $2)"
         "          AND (provider_checked_at IS NULL OR (provider_checked_at <= now() - make_interval(secs => $2)"
         "                                               AND provider_checked_at < to_timestamp($3))))"
         "      OR (status = 'canceled' AND (failure_reason LIKE 'expired:%' OR failure_reason = 'canceled by the buyer')"
         "          AND expires_at <= now()"
         "          AND (provider_checked_at IS NULL OR provider_checked_at < expires_at)))"
         "  ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)"
         " UPDATE transactions t SET provider_checked_at = now() FROM due WHERE t.id = due.id RETURNING t.id"},
        // The buyer ends their own open payment (services/payment_cancel.hpp).
        {"cancel_payment_by_buyer",
         "UPDATE transactions SET status = 'canceled', failure_reason = 'canceled by the buyer'"
         " WHERE id = $1 AND user_id = $2 AND status = 'pending' AND paid_at IS NULL RETURNING coalesce(provider, method) AS provider"},
        {"buyer_payment_state", "SELECT status, paid_at IS NOT NULL AS paid FROM transactions WHERE id = $1 AND user_id = $2"},
        {"payment_for_recheck",
         "SELECT coalesce(provider, '') AS provider, coalesce(provider_payment_id, '') AS provider_payment_id,"
         " status, paid_at IS NOT NULL AS paid FROM transactions WHERE id = $1"},
    };
}

}  // namespace cabinet
