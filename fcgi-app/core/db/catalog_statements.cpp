#include "db/statements.hpp"

namespace cabinet {

// Read-only statements of the catalogue endpoints; db/catalog_repo.cpp runs them.
std::vector<Statement> catalog_statements() {
    return {
    // The cached catalogue keeps every sale not over yet: one that starts later applies from
    // its start without a reload. Whole seconds, as the API shows them.
    {"catalog_sales",
     "SELECT floor(extract(epoch FROM starts_at))::bigint AS starts_at, "
     "       floor(extract(epoch FROM ends_at))::bigint AS ends_at, discount_pct "
     "FROM sales WHERE ends_at > now()"},
    {"catalog_version", "SELECT version FROM catalog_version"},
    // Plans and their durations in one round trip; the inner join drops plans without a
    // duration (nothing to buy). Rows of one plan are adjacent thanks to the ORDER BY.
    {"catalog_active_plans",
     "SELECT p.id, p.public_code, p.name, p.description, p.traffic_limit_bytes, p.device_limit, "
     "       d.days, d.months, d.price_minor "
     "FROM plans p JOIN plan_durations d ON d.plan_id = p.id "
     "WHERE p.is_active "
     "ORDER BY p.sort_order, p.id, d.days"},
    // Both constructor lists in one round trip: kind 'p' = period, 'k' = pack.
    // Packs by gb with 0 (unlimited) last.
    {"catalog_constructor",
     "(SELECT 'p' AS kind, id, days AS amount, months, price_minor, 0 AS pos1, days AS pos2 "
     " FROM constructor_periods WHERE is_active) "
     "UNION ALL "
     "(SELECT 'k', id, gb, 0, price_minor, CASE WHEN gb = 0 THEN 1 ELSE 0 END, gb "
     " FROM constructor_packs WHERE is_active) "
     "ORDER BY kind DESC, pos1, pos2"},
    {"catalog_referral_stats",
     "SELECT (SELECT count(*) FROM users WHERE referred_by = $1) AS invited_count, "
     "       (SELECT coalesce(sum(amount_minor), 0) FROM referral_earnings WHERE referrer_id = $1)::bigint "
     "       AS earnings_minor"},
    // Served by transactions_user_created_idx (user_id, created_at DESC, id DESC).
    {"catalog_recent_payments",
     "SELECT id, type, status, amount_minor, currency, method, "
     "       floor(extract(epoch FROM t.created_at))::bigint AS created_unix, "
     "       CASE WHEN t.status = 'pending' AND t.paid_at IS NULL"
     "            THEN floor(extract(epoch FROM t.expires_at))::bigint END AS expires_unix "
     "FROM transactions t WHERE t.user_id = $1 "
     "ORDER BY t.created_at DESC, t.id DESC LIMIT $2"},
    };
}

}  // namespace cabinet
