#include "db/statements.hpp"

namespace cabinet {
namespace {

#define ACCOUNT_COLUMNS                                                                                    \
    "u.id, u.telegram_id, u.username, u.first_name, u.last_name, u.language, u.currency, u.balance_minor, " \
    "u.referral_code, u.personal_discount_pct, u.is_blocked, u.trial_used, "                               \
    "s.status AS sub_status, s.is_trial, s.plan_snapshot->>'name' AS plan_name, "                          \
    "extract(epoch FROM s.start_at)::bigint AS start_at, extract(epoch FROM s.expire_at)::bigint AS expire_at, " \
    "s.device_limit, s.traffic_limit_bytes, s.traffic_used_bytes, s.subscription_url, s.crypto_link, "    \
    "s.autopay_enabled "

const std::vector<Statement> kStatements = {
    {"account_by_telegram_id",
     "SELECT " ACCOUNT_COLUMNS "FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE u.telegram_id = $1"},
    {"account_by_id", "SELECT " ACCOUNT_COLUMNS "FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE u.id = $1"},
    {"user_id_by_telegram_id", "SELECT id FROM users WHERE telegram_id = $1"},
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

#undef ACCOUNT_COLUMNS

}  // namespace

const std::vector<Statement>& pool_statements() { return kStatements; }

}  // namespace cabinet
