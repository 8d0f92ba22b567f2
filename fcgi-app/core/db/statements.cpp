#include "db/statements.hpp"

namespace cabinet {

// The caller as authentication loads it: user, discounts, subscription (one row).
#define ACCOUNT_COLUMNS                                                                                    \
    "u.id, u.telegram_id, u.username, u.first_name, u.last_name, u.language, u.currency, u.balance_minor, " \
    "u.referral_code, u.personal_discount_pct, u.is_blocked, u.trial_used, "                               \
    "s.status AS sub_status, s.is_trial, s.plan_snapshot->>'name' AS plan_name, "                          \
    "floor(extract(epoch FROM s.start_at))::bigint AS start_at, floor(extract(epoch FROM s.expire_at))::bigint AS expire_at, " \
    "s.device_limit, s.traffic_limit_bytes, s.traffic_used_bytes, s.subscription_url, s.crypto_link, "    \
    "s.autopay_enabled, s.plan_id, s.panel_uuid::text AS panel_uuid, s.short_uuid, "                     \
    "coalesce(floor(extract(epoch FROM s.link_reset_at))::bigint, 0) AS link_reset_at, s.revision AS sub_revision, " \
    "coalesce(floor(extract(epoch FROM s.traffic_synced_at))::bigint, 0) AS traffic_synced_at, "          \
    "u.referred_by, coalesce(g.discount_pct, 0) AS group_discount_pct, "                                 \
    "CASE WHEN u.promo_discount_until IS NULL OR u.promo_discount_until > now() "                        \
    "     THEN u.promo_discount_pct ELSE 0 END AS promo_discount_pct, "                                 \
    "coalesce(floor(extract(epoch FROM u.promo_discount_until))::bigint, 0) AS promo_discount_until, "   \
    "(SELECT version FROM catalog_version) AS catalog_version "
#define ACCOUNT_FROM \
    "FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id LEFT JOIN promo_groups g ON g.id = u.promo_group_id "

std::vector<Statement> account_statements() {
    return {
    {"account_by_telegram_id",
     "SELECT " ACCOUNT_COLUMNS ACCOUNT_FROM "WHERE u.telegram_id = $1"},
    {"account_by_id", "SELECT " ACCOUNT_COLUMNS ACCOUNT_FROM "WHERE u.id = $1"},
    // The same under the writer's lock, with the sale running now (the price is made from it
    // in the same transaction: services/order).
    {"locked_account_by_id",
     "SELECT " ACCOUNT_COLUMNS ", (SELECT coalesce(max(discount_pct), 0) FROM sales"
     " WHERE starts_at <= now() AND ends_at > now()) AS running_sale_pct " ACCOUNT_FROM "WHERE u.id = $1"},
    // Writers of money, trial or subscription lock the user row first, and only then read the
    // account (account_by_id, a new statement): db/accounts_repo.hpp lock_account.
    {"lock_user", "SELECT 1 FROM users WHERE id = $1 FOR UPDATE"},
    {"user_id_by_telegram_id", "SELECT id FROM users WHERE telegram_id = $1"},
    // GET /dl: is this encrypted Happ link one the panel gave a subscription of ours?
    {"crypto_link_issued", "SELECT 1 FROM subscriptions WHERE crypto_link = $1 AND crypto_link <> ''"},
    // First contact: the user and its registration event in one statement.
    {"register_telegram_user",
     "WITH ins AS ("
     "  INSERT INTO users (telegram_id, username, first_name, last_name, language, currency, referral_code, referred_by)"
     "  VALUES ($1, $2, $3, $4, $5, $6, $7,"
     "          (SELECT id FROM users WHERE referral_code = NULLIF($8, '') AND telegram_id IS DISTINCT FROM $1))"
     "  ON CONFLICT (telegram_id) DO NOTHING"
     "  RETURNING id, referred_by"
     "), ev AS ("
     "  INSERT INTO events (user_id, kind, payload)"
     "  SELECT id, 'registration', jsonb_build_object('source', 'miniapp', 'telegram_id', $1::bigint, 'referred_by', referred_by)"
     "  FROM ins"
     ") SELECT id FROM ins"},
    {"refresh_telegram_profile",
     "UPDATE users SET username = $2, first_name = $3, last_name = $4, updated_at = now() WHERE id = $1"},
    {"app_config",
     "SELECT template, title, greeting, accent_color, mtproto_proxy, ui::text AS ui, "
     "extract(epoch FROM published_at)::bigint AS published_at FROM app_config WHERE id = 1"},
    {"ping", "SELECT 1"},
    };
}

#undef ACCOUNT_COLUMNS
#undef ACCOUNT_FROM

const std::vector<Statement>& pool_statements() {
    static const std::vector<Statement> all = [] {
        std::vector<Statement> v = account_statements();
        for (auto&& part : {catalog_statements(), subscription_statements(), purchase_statements(), payment_statements(), maintenance_statements(), web_auth_statements(), support_statements(), linking_statements(), oauth_statements(), ledger_statements(), owner_settings_statements(), catalog_admin_statements()}) v.insert(v.end(), part.begin(), part.end());
        return v;
    }();
    return all;
}

}  // namespace cabinet
