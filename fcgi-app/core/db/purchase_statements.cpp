#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> purchase_statements() {
    return {
        {"purchase_by_idempotency_key",
         "SELECT id, status FROM transactions WHERE user_id = $1 AND idempotency_key = $2"},
        {"insert_purchase",
         "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, plan_snapshot, pricing,"
         "  description, idempotency_key, completed_at)"
         " VALUES ($1, 'subscription_payment', $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, NULLIF($9, ''),"
         "  CASE WHEN $2 = 'completed' THEN now() END)"
         " RETURNING id"},
        // A promo-code offer is for one purchase.
        {"consume_promo_offer",
         "UPDATE users SET promo_discount_pct = 0, promo_discount_until = NULL, updated_at = now()"
         " WHERE id = $1 AND promo_discount_pct <> 0"},
        // The referrer's commission on one purchase ($4): the earning and the referrer's
        // history entry; the ledger's UNIQUE transaction_id makes a repeat a unique
        // violation. The money itself moves through ledger_move (services/referral_commission).
        // Taken first: the commission's inserts check their foreign keys with a KEY SHARE
        // lock on the referrer's row, and upgrading that to the UPDATE's lock while the
        // referrer's own purchase waits in line deadlocks (found by the property test).
        {"lock_referrer", "SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE"},
        {"record_referral_commission",
         "WITH earning AS ("
         "  INSERT INTO referral_earnings (referrer_id, referral_id, transaction_id, amount_minor) VALUES ($1, $2, $4, $3)"
         ") INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, description, completed_at)"
         "  SELECT $1, 'referral_reward', 'completed', $3, currency, 'referral', 'referral commission', now()"
         "  FROM users WHERE id = $1"
         " RETURNING id"},
        // Online payments (services/payment_confirmation.cpp).
        {"set_payment_checkout",
         "UPDATE transactions SET provider = $2, provider_payment_id = NULLIF($3, ''), confirmation_url = NULLIF($4, '')"
         " WHERE id = $1"},
        {"payment_for_update",
         "SELECT id, user_id, status, paid_at IS NOT NULL AS paid, amount_minor, currency, coalesce(provider, '') AS provider,"
         "  coalesce((pricing->>'stars')::bigint, 0) AS stars"
         " FROM transactions WHERE id = $1 AND type = 'subscription_payment' FOR UPDATE"},
        {"mark_payment_paid",
         "UPDATE transactions SET paid_at = now(), provider_payment_id = coalesce(provider_payment_id, NULLIF($2, ''))"
         " WHERE id = $1"},
        {"mark_payment_failed",
         "UPDATE transactions SET status = 'failed', failure_reason = $2 WHERE id = $1 AND status = 'pending'"},
        // Telegram asks before taking the stars: is this invoice still open, for this amount?
        {"stars_invoice_open",
         "SELECT 1 FROM transactions WHERE id = $1 AND status = 'pending' AND paid_at IS NULL"
         " AND provider = 'stars' AND (pricing->>'stars')::bigint = $2"},
        // Autopay: the plan and duration of the user's last completed plan purchase.
        {"last_plan_purchase",
         "SELECT (plan_snapshot->>'plan_id')::bigint AS plan_id, (plan_snapshot->>'days')::bigint AS days"
         " FROM transactions WHERE user_id = $1 AND type = 'subscription_payment' AND status = 'completed'"
         "  AND plan_snapshot ? 'plan_id' ORDER BY created_at DESC, id DESC LIMIT 1"},
        {"autopay_due",
         "SELECT user_id, floor(extract(epoch FROM expire_at))::bigint AS expire_unix FROM subscriptions"
         " WHERE autopay_enabled AND NOT is_trial AND status IN ('active', 'limited')"
         "  AND expire_at > now() AND expire_at <= now() + make_interval(secs => $1)"},
        {"payment_owner", "SELECT user_id FROM transactions WHERE id = $1"},
        {"payment_to_fulfil",
         "SELECT status, paid_at IS NOT NULL AS paid, plan_snapshot::text AS snapshot, amount_minor"
         " FROM transactions WHERE id = $1 FOR UPDATE"},
        {"complete_payment", "UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = $1"},
    };
}

}  // namespace cabinet
