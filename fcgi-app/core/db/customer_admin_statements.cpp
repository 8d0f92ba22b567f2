#include "db/statements.hpp"

namespace cabinet {

// The owner's view of one customer (services/customer_card.cpp), the actions on them
// (services/customer_actions.cpp) and on their payments (services/payment_admin.cpp). The list itself is services/customer_search.cpp's.
// Each read is a short range of an index on the customer's id: a card costs the same at a
// million customers as at ten.
std::vector<Statement> customer_admin_statements() {
    return {
        {"admin_customer_profile",
         "SELECT u.language, u.email_verified, u.password_hash IS NOT NULL AS has_password, u.trial_used,"
         "       u.referred_by, coalesce(nullif(trim(r.first_name || ' ' || r.last_name), ''), r.username) AS referrer_name"
         " FROM users u LEFT JOIN users r ON r.id = u.referred_by WHERE u.id = $1"},
        {"admin_customer_logins",
         "SELECT provider, email FROM user_oauth_links WHERE user_id = $1 ORDER BY provider"},
        {"admin_customer_subscription",
         "SELECT s.status, s.is_trial, p.public_code AS plan_code, coalesce(s.plan_snapshot->>'name', '') AS plan_name,"
         "       floor(extract(epoch FROM s.start_at))::bigint AS start_at,"
         "       floor(extract(epoch FROM s.expire_at))::bigint AS expire_at, s.device_limit, s.traffic_limit_bytes,"
         "       s.traffic_used_bytes, s.subscription_url, s.autopay_enabled"
         " FROM subscriptions s LEFT JOIN plans p ON p.id = s.plan_id WHERE s.user_id = $1"},
        {"admin_customer_ledger",
         "SELECT id, floor(extract(epoch FROM created_at))::bigint AS at, delta_minor, balance_after, reason, note"
         " FROM balance_ledger WHERE user_id = $1 ORDER BY id DESC LIMIT $2"},
        {"admin_customer_payments",
         "SELECT id, floor(extract(epoch FROM created_at))::bigint AS at, type, status, amount_minor, currency, method,"
         "       provider, description"
         " FROM transactions WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2"},
        {"admin_customer_invited",
         "SELECT id, coalesce(nullif(trim(first_name || ' ' || last_name), ''), username) AS name,"
         "       floor(extract(epoch FROM created_at))::bigint AS created_at"
         " FROM users WHERE referred_by = $1 ORDER BY id DESC LIMIT $2"},
        {"admin_customer_referral_totals",
         "SELECT (SELECT count(*) FROM users WHERE referred_by = $1) AS invited,"
         "       (SELECT coalesce(sum(amount_minor), 0) FROM referral_earnings WHERE referrer_id = $1)::bigint AS earned"},
        {"admin_customer_promo_codes",
         "SELECT c.code, c.reward_type, floor(extract(epoch FROM a.created_at))::bigint AS at"
         " FROM promo_activations a JOIN promo_codes c ON c.id = a.promo_code_id WHERE a.user_id = $1"
         " ORDER BY a.id DESC LIMIT $2"},
        {"admin_customer_ticket",
         "SELECT t.id, t.status, floor(extract(epoch FROM t.updated_at))::bigint AS updated_at,"
         "       (SELECT count(*) FROM support_messages m WHERE m.ticket_id = t.id) AS message_count"
         " FROM support_tickets t WHERE t.user_id = $1 ORDER BY t.id DESC LIMIT 1"},
        {"admin_customer_panel_user",
         "SELECT s.panel_uuid::text AS uuid, s.device_limit FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id"
         " WHERE u.id = $1"},
        {"admin_customer_audit",
         "SELECT id, floor(extract(epoch FROM at))::bigint AS at, actor, action, payload::text AS payload"
         " FROM audit_log WHERE entity = $1 ORDER BY id DESC LIMIT $2"},

        // An action's Idempotency-Key, claimed in the action's transaction: a second request
        // with it waits here until the first commits, then finds it (no row returned).
        {"admin_action_claim",
         "INSERT INTO admin_actions (idempotency_key, actor, action, user_id, answer) VALUES ($1, $2, $3, $4, '')"
         " ON CONFLICT (idempotency_key) DO NOTHING RETURNING 1"},
        {"admin_action_by_key", "SELECT action, user_id, answer FROM admin_actions WHERE idempotency_key = $1"},
        {"admin_action_answer", "UPDATE admin_actions SET answer = $2 WHERE idempotency_key = $1"},
        {"admin_customer_block",
         "UPDATE users SET is_blocked = $2, updated_at = now() WHERE id = $1 AND is_blocked <> $2 RETURNING id"},
        {"admin_customer_discount", "UPDATE users SET personal_discount_pct = $2, updated_at = now() WHERE id = $1"},
        {"admin_customer_promo_group",
         "WITH g AS (SELECT id FROM promo_groups WHERE name = $2)"
         " UPDATE users SET promo_group_id = (SELECT id FROM g), updated_at = now()"
         " WHERE id = $1 AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM g)) RETURNING id"},
        // The owner's payments (services/payment_admin.cpp).
        {"admin_payment_for_refund",
         "SELECT type, status, method, provider, provider_payment_id, amount_minor, currency,"
         "       coalesce((pricing->>'stars')::bigint, 0) AS stars, coalesce((plan_snapshot->>'days')::bigint, 0) AS days"
         " FROM transactions WHERE id = $1 FOR UPDATE"},
        {"admin_payment_events",
         "SELECT floor(extract(epoch FROM at))::bigint AS at, provider, outcome, amount FROM payment_events"
         " WHERE transaction_id = $1 ORDER BY id"},
        // Who refunded payment $1 of customer $2 from the owner's cabinet, and why (the audit
        // entry the refund wrote; the entity index finds the customer's few).
        {"admin_payment_refunded_by",
         "SELECT actor, coalesce(payload->>'reason', '') AS reason, floor(extract(epoch FROM at))::bigint AS at"
         " FROM audit_log WHERE entity = 'user:' || $2::bigint AND action = 'payment.refund'"
         "   AND payload->>'transaction_id' = $1::bigint::text ORDER BY id DESC LIMIT 1"},
        {"admin_plan_by_code",
         "SELECT id, public_code, name, coalesce(traffic_limit_bytes, 0) AS traffic_limit_bytes, device_limit FROM plans"
         " WHERE public_code = $1"},
    };
}

}  // namespace cabinet
