#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> subscription_statements() {
    return {
        // The subscription, its history row and the panel write mark (sql 0039
        // write_subscription): the new revision, or NULL when the row moved since the
        // writer's locked read.
        {"write_subscription",
         "SELECT write_subscription($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11::uuid, $12, $13, $14, $15, $16,"
         " $17, $18, $19)"},
        {"mark_trial_used", "UPDATE users SET trial_used = true, updated_at = now() WHERE id = $1"},
        {"insert_transaction",
         "INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, plan_snapshot, description,"
         "  completed_at)"
         " VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, CASE WHEN $3 = 'completed' THEN now() END) RETURNING id"},
        {"set_subscription_link",
         "UPDATE subscriptions SET short_uuid = $2, subscription_url = $3, crypto_link = '', link_reset_at = now(),"
         " updated_at = now()"
         " WHERE user_id = $1"},
        {"set_traffic_used",
         "UPDATE subscriptions SET traffic_used_bytes = $2, traffic_synced_at = now(), updated_at = now() WHERE user_id = $1"},
        {"upsert_traffic_snapshot",
         "INSERT INTO traffic_snapshots (user_id, day, used_bytes) VALUES ($1, (now() AT TIME ZONE 'UTC')::date, $2)"
         " ON CONFLICT (user_id, day) DO UPDATE SET used_bytes = EXCLUDED.used_bytes"},
        {"traffic_series",
         // Days since 1970-01-01: four bytes each in the account cache, formatted when written.
         "SELECT day - DATE '1970-01-01' AS day, used_bytes FROM ("
         "  SELECT day, used_bytes FROM traffic_snapshots WHERE user_id = $1 ORDER BY day DESC LIMIT 30"
         ") recent ORDER BY day"},
        // A code by its text, unlocked: an unlimited code is never locked before its use is
        // counted (record_promo_activation), so its activations do not queue on it through
        // their panel calls. A limited one is then read again locked, by id.
        {"promo_by_code",
         "SELECT id, reward_type, value, plan_id, max_uses, uses, is_active,"
         "  valid_from IS NOT NULL AND valid_from > now() AS not_yet,"
         "  valid_until IS NOT NULL AND valid_until <= now() AS expired"
         " FROM promo_codes WHERE lower(code) = lower($1)"},
        {"promo_for_update",
         "SELECT id, reward_type, value, plan_id, max_uses, uses, is_active,"
         "  valid_from IS NOT NULL AND valid_from > now() AS not_yet,"
         "  valid_until IS NOT NULL AND valid_until <= now() AS expired"
         " FROM promo_codes WHERE id = $1 FOR UPDATE"},
        {"promo_activated_by", "SELECT 1 FROM promo_activations WHERE promo_code_id = $1 AND user_id = $2"},
        {"record_promo_activation",
         "WITH a AS (INSERT INTO promo_activations (promo_code_id, user_id) VALUES ($1, $2))"
         " UPDATE promo_codes SET uses = uses + 1 WHERE id = $1"},
        // The user's discount is held by an invoice that may still be paid (pending and in
        // time, or paid and not yet fulfilled): its fulfilment will use the offer up.
        {"promo_offer_held",
         "SELECT 1 FROM users u JOIN transactions t ON t.id = u.promo_reserved_by"
         " WHERE u.id = $1 AND u.promo_discount_pct > 0 AND t.status = 'pending'"
         "  AND (t.paid_at IS NOT NULL OR t.expires_at > now())"},
        {"set_promo_offer",
         "UPDATE users SET promo_discount_pct = $2, promo_discount_until = now() + make_interval(days => $3),"
         " updated_at = now() WHERE id = $1"},
        {"plan_for_grant",
         "SELECT id, name, public_code, coalesce(traffic_limit_bytes, 0) AS traffic_limit_bytes, device_limit"
         " FROM plans WHERE id = $1"},
        // The customer's autopay switch (services/autopay.hpp set_autopay).
        {"set_autopay", "UPDATE subscriptions SET autopay_enabled = $2 WHERE user_id = $1"},
    };
}

}  // namespace cabinet
