#include "db/statements.hpp"

namespace cabinet {

std::vector<Statement> account_statements() {
    return {
    // The caller as authentication loads it: user, discounts, subscription (one row). The
    // columns are the view account_rows_v2 (sql 0036, 0055), shared with lock_account_v2.
    {"account_by_telegram_id", "SELECT * FROM account_rows_v2 WHERE telegram_id = $1"},
    {"account_by_id", "SELECT * FROM account_rows_v2 WHERE id = $1"},
    // Writers of money, trial or subscription lock the user row first, and only then read the
    // account with the sale running now, in a new statement inside the SQL function (sql
    // 0036): one round trip. db/accounts_repo.hpp lock_account.
    {"lock_account", "SELECT * FROM lock_account_v2($1)"},
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

const std::vector<Statement>& pool_statements() {
    static const std::vector<Statement> all = [] {
        std::vector<Statement> v = account_statements();
        for (auto&& part : {catalog_statements(), subscription_statements(), purchase_statements(), payment_statements(), maintenance_statements(), web_auth_statements(), support_statements(), linking_statements(), oauth_statements(), ledger_statements(), owner_settings_statements(), catalog_admin_statements(), promo_admin_statements(), overview_statements(), customer_admin_statements(), broadcast_statements()}) v.insert(v.end(), part.begin(), part.end());
        return v;
    }();
    return all;
}

}  // namespace cabinet
