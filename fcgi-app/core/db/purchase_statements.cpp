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
        // The referrer's commission on one purchase ($4): balance, ledger and history in one
        // statement; the ledger's UNIQUE transaction_id makes a repeat a unique violation.
        {"pay_referral_commission",
         "WITH credit AS ("
         "  UPDATE users SET balance_minor = balance_minor + $3, updated_at = now() WHERE id = $1 RETURNING currency"
         "), history AS ("
         "  INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, description, completed_at)"
         "  SELECT $1, 'referral_reward', 'completed', $3, currency, 'referral', 'referral commission', now() FROM credit"
         ") INSERT INTO referral_earnings (referrer_id, referral_id, transaction_id, amount_minor)"
         "  SELECT $1, $2, $4, $3 FROM credit"},
    };
}

}  // namespace cabinet
