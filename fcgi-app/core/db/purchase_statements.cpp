#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> purchase_statements() {
    return {
        {"purchase_by_idempotency_key",
         "SELECT id, status FROM transactions WHERE user_id = $1 AND idempotency_key = $2"},
        // $10: seconds a pending invoice stays payable (PAYMENT_PENDING_TTL_S).
        {"insert_purchase",
         "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, plan_snapshot, pricing,"
         "  description, idempotency_key, completed_at, expires_at)"
         " VALUES ($1, 'subscription_payment', $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, NULLIF($9, ''),"
         "  CASE WHEN $2 = 'completed' THEN now() END,"
         "  CASE WHEN $2 = 'pending' THEN now() + make_interval(secs => $10) END)"
         " RETURNING id"},
        // A purchase settled at once (balance, free), everything after its panel call in
        // one round trip: sql 0024/0039 settle_purchase, services/balance_purchase.cpp.
        {"settle_purchase",
         "SELECT o_transaction, o_balance_after, o_revision FROM settle_purchase($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7,"
         " $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16, $17, $18, $19::uuid, $20, $21, $22, $23, $24, $25, $26,"
         " $27, $28, $29, $30::jsonb, $31, $32)"},
        {"consume_promo_offer", "SELECT consume_promo_offer($1)"},
        // A new invoice priced with the promo discount ($2) holds it; an older unpaid one
        // loses it (its pre-checkout then refuses), a paid one keeps it until fulfilled.
        {"reserve_promo_offer",
         "UPDATE users u SET promo_reserved_by = $2 WHERE id = $1 AND (promo_reserved_by IS NULL OR NOT EXISTS ("
         "  SELECT 1 FROM transactions t WHERE t.id = u.promo_reserved_by AND t.paid_at IS NOT NULL))"},
        {"payment_offer_holds", "SELECT payment_offer_holds($1)"},
        // The referrer's reward for one purchase: sql 0024 reward_referrer (services/referral_commission).
        {"reward_referrer", "SELECT reward_referrer($1, $2, $3, $4, $5, $6::jsonb, $7)"},
        // Online payments (services/payment_confirmation.cpp).
        // A checkout whose provider failed (services/online_checkout.cpp): the pending row it
        // reserved goes, and an account made for it alone (a guest's, nothing else yet).
        {"withdraw_reserved_payment",
         "DELETE FROM transactions WHERE id = $1 AND user_id = $2 AND status = 'pending' AND provider_payment_id IS NULL"},
        // Locked first, alone: a purchase of the same address that came meanwhile (its
        // transaction references the row) is then seen by the DELETE's own snapshot, and the
        // account stays with it; removing it would take that payment along (ON DELETE CASCADE).
        {"lock_made_account", "SELECT 1 FROM users WHERE id = $1 FOR UPDATE"},
        {"withdraw_made_account", "DELETE FROM users WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM transactions WHERE user_id = $1)"},
        {"set_payment_checkout",
         "UPDATE transactions SET provider = $2, provider_payment_id = NULLIF($3, ''), confirmation_url = NULLIF($4, '')"
         " WHERE id = $1"},
        {"payment_for_update",
         "SELECT id, user_id, status, paid_at IS NOT NULL AS paid, amount_minor, currency, coalesce(provider, '') AS provider,"
         "  coalesce((pricing->>'stars')::bigint, 0) AS stars, coalesce(provider_payment_id, '') AS provider_payment_id"
         " FROM transactions WHERE id = $1 AND type = 'subscription_payment' FOR UPDATE"},
        // A second charge of a paid Stars invoice ($2 its charge id, $3 the credit, $4 its
        // stars): a completed deposit of its own; nothing when that charge is recorded already.
        {"insert_second_charge",
         "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, provider, provider_payment_id,"
         "  pricing, description, paid_at, completed_at)"
         " SELECT user_id, 'deposit', 'completed', $3, currency, method, provider, $2, jsonb_build_object('stars', $4::bigint),"
         "  'Paid twice: the second payment of order #' || id || ' went to the balance', now(), now()"
         " FROM transactions WHERE id = $1"
         " ON CONFLICT (provider_payment_id) WHERE provider_payment_id IS NOT NULL DO NOTHING RETURNING id, user_id"},
        // A Stars refund names its charge: the transaction that charge paid, or, for a
        // payment recorded without its charge id, the invoice of the payload ($1).
        {"stars_refund_target",
         "SELECT coalesce((SELECT id FROM transactions WHERE provider_payment_id = $2),"
         " (SELECT id FROM transactions WHERE id = $1 AND provider_payment_id IS NULL)) AS id"},
        // A late payment (the invoice had ended: expired, canceled, failed as underpaid) is
        // pending again until fulfilment decides what it buys.
        {"mark_payment_paid",
         "UPDATE transactions SET paid_at = now(), status = 'pending',"
         " provider_payment_id = coalesce(provider_payment_id, NULLIF($2, '')) WHERE id = $1"},
        {"mark_payment_failed",
         "UPDATE transactions SET status = 'failed', failure_reason = $2 WHERE id = $1 AND status = 'pending'"},
        // Telegram asks before taking the stars: is this invoice still open, for this amount?
        {"stars_invoice_open",
         "SELECT 1 FROM transactions WHERE id = $1 AND status = 'pending' AND paid_at IS NULL"
         " AND provider = 'stars' AND (pricing->>'stars')::bigint = $2 AND now() < expires_at"
         " AND payment_offer_holds(id)"},
        // Unpaid invoices past their time, oldest first (the worker ends them).
        {"expired_pending_payments",
         "SELECT id, user_id FROM transactions WHERE status = 'pending' AND paid_at IS NULL AND expires_at <= now()"
         " ORDER BY expires_at LIMIT $1"},
        {"expire_payment",
         "UPDATE transactions SET status = 'canceled', failure_reason = 'expired: not paid in time'"
         " WHERE id = $1 AND status = 'pending' AND paid_at IS NULL AND expires_at <= now()"},
        // Paid orders that nothing will fulfil: no job holds their key ($3 || id: pending,
        // running or done) and none of their jobs died in the last $2 seconds. Each gets its
        // fulfilment job ($4, with $5 attempts) again; `job` is NULL when a webhook queued one
        // at the same moment. MATERIALIZED: the jobs are queued for the rows LIMIT keeps only.
        {"requeue_paid_orders",
         "WITH stuck AS MATERIALIZED ("
         "  SELECT t.id FROM transactions t WHERE t.status = 'pending' AND t.paid_at IS NOT NULL"
         "   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.dedupe_key = $3::text || t.id)"
         "   AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.status = 'dead' AND j.kind = $4::text"
         "                    AND j.payload->>'transaction_id' = t.id::text"
         "                    AND j.finished_at > now() - make_interval(secs => $2::bigint))"
         "  ORDER BY t.paid_at LIMIT $1)"
         " SELECT id, enqueue_job($4, jsonb_build_object('transaction_id', id), $3 || id, 0, $5::integer) AS job FROM stuck"},
        // Referral bonuses that nothing will grant: a bonus job ($4) died, the last of them
        // at least $2 seconds ago, no job holds the referral's key ($3 || referral: pending,
        // running or done), and the referrer still has an account. The newest dead job's
        // payload is queued again (with $5 attempts); `job` is NULL when a purchase queued
        // the bonus at the same moment. One pass over the dead bonus jobs, grouped. Only
        // payloads the job can run count: both ids integers (an operator's hand-made job
        // without a referral_id has no key, and would be queued again at every beat).
        {"requeue_referral_bonuses",
         "WITH dead AS ("
         "  SELECT d.payload->>'referral_id' AS referral, (d.payload->>'referrer_id')::bigint AS referrer,"
         "   (array_agg(d.payload ORDER BY d.finished_at DESC NULLS LAST))[1] AS payload"
         "  FROM jobs d WHERE d.kind = $4::text AND d.status = 'dead'"
         "   AND jsonb_typeof(d.payload->'referral_id') = 'number' AND d.payload->>'referral_id' ~ '^[0-9]{1,18}$'"
         "   AND jsonb_typeof(d.payload->'referrer_id') = 'number' AND d.payload->>'referrer_id' ~ '^[0-9]{1,18}$'"
         "  GROUP BY 1, 2 HAVING max(d.finished_at) <= now() - make_interval(secs => $2::bigint)),"
         " stuck AS MATERIALIZED ("
         "  SELECT referral, payload FROM dead"
         "  WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.dedupe_key = $3::text || referral)"
         "   AND EXISTS (SELECT 1 FROM users u WHERE u.id = referrer)"
         "  ORDER BY referral LIMIT $1)"
         " SELECT referral, enqueue_job($4, payload, $3 || referral, 0, $5::integer) AS job FROM stuck"},
        // Autopay: the plan and duration of the user's last completed plan purchase.
        // A plan's purchase names plan_id and days; a constructor's, period_id and pack_id.
        {"last_plan_purchase",
         "SELECT (plan_snapshot->>'plan_id')::bigint AS plan_id, (plan_snapshot->>'days')::bigint AS days,"
         " (plan_snapshot->>'period_id')::bigint AS period_id, (plan_snapshot->>'pack_id')::bigint AS pack_id"
         " FROM transactions WHERE user_id = $1 AND type = 'subscription_payment' AND status = 'completed'"
         "  AND (plan_snapshot ? 'plan_id' OR plan_snapshot ? 'period_id') ORDER BY created_at DESC, id DESC LIMIT 1"},
        {"autopay_due",
         "SELECT s.user_id, floor(extract(epoch FROM s.expire_at))::bigint AS expire_unix, u.balance_minor"
         " FROM subscriptions s JOIN users u ON u.id = s.user_id"
         " WHERE s.autopay_enabled AND NOT s.is_trial AND s.status IN ('active', 'limited') AND NOT u.is_blocked"
         "  AND s.expire_at > now() AND s.expire_at <= now() + make_interval(secs => $1)"},
        {"payment_owner", "SELECT user_id FROM transactions WHERE id = $1"},
        {"payment_to_fulfil",
         "SELECT status, paid_at IS NOT NULL AS paid, plan_snapshot::text AS snapshot, amount_minor,"
         "  coalesce((pricing->>'promo_pct')::int, 0) AS promo_pct, payment_offer_holds(id) AS offer_holds"
         " FROM transactions WHERE id = $1 FOR UPDATE"},
        // A refund (services/payment_refund.cpp): what the payment bought, and whether it
        // was credited to the balance instead of granted.
        {"payment_for_refund",
         "SELECT status, paid_at IS NOT NULL AS paid, amount_minor, coalesce(provider, '') AS provider,"
         "  coalesce((pricing->>'stars')::bigint, 0) AS stars, coalesce((plan_snapshot->>'days')::bigint, 0) AS days,"
         "  EXISTS (SELECT 1 FROM balance_ledger b WHERE b.transaction_id = t.id AND b.reason = 'deposit') AS credited"
         " FROM transactions t WHERE id = $1 AND type IN ('subscription_payment', 'deposit') FOR UPDATE"},
        {"record_payment_event",
         "INSERT INTO payment_events (transaction_id, provider, outcome, amount)"
         " SELECT $1, $2, $3, $4 WHERE EXISTS (SELECT 1 FROM transactions WHERE id = $1)"},
        {"mark_payment_refunded",
         "UPDATE transactions SET status = 'refunded', failure_reason = 'refunded by the provider' WHERE id = $1"},
        {"note_partial_refund",
         "UPDATE transactions SET failure_reason = 'partly refunded by the provider: ' || $2::bigint WHERE id = $1"},
        {"complete_payment", "UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = $1"},
        {"complete_payment_as_credit",
         "UPDATE transactions SET status = 'completed', completed_at = now(),"
         " failure_reason = 'paid after its discount ended: the amount went to the balance' WHERE id = $1"},
    };
}

}  // namespace cabinet
