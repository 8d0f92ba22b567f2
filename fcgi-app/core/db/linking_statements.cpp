#include "db/statements.hpp"

namespace cabinet {

// Telegram web login, e-mail linking and the web→Telegram account merge
// (db/linking_repo.cpp, sql/migrations/0010_linking.sql).
std::vector<Statement> linking_statements() {
    return {
    // --- one-time codes the bot confirms ---
    {"insert_telegram_code",
     "INSERT INTO telegram_codes (code_hash, kind, user_id, expires_at, start_ip, start_user_agent, browser_hash,"
     "  needs_approval)"
     " VALUES ($1, $2, NULLIF($3::bigint, 0), now() + $4::bigint * interval '1 second', $5, $6, NULLIF($7, ''), $8)"},
    // What the bot's prompt names: who started the code, and the web account a link merges.
    {"telegram_code_for_prompt",
     "SELECT c.start_ip, c.start_user_agent, floor(extract(epoch FROM c.created_at))::bigint AS created_at,"
     " coalesce(u.email, '') AS email, coalesce(u.password_hash IS NOT NULL, false) AS has_password,"
     " coalesce((SELECT string_agg(l.provider, ',' ORDER BY l.provider) FROM user_oauth_links l WHERE l.user_id = u.id), '')"
     "  AS oauth_providers"
     " FROM telegram_codes c LEFT JOIN users u ON u.id = c.user_id"
     " WHERE c.code_hash = $1 AND c.kind = $2 AND c.confirmed_at IS NULL AND c.spent_at IS NULL"
     "  AND c.expires_at > now()"},
    // Cancel in the bot: the code can no longer be confirmed, polled or merged.
    {"cancel_telegram_code",
     "UPDATE telegram_codes SET cancelled_at = now(), spent_at = now()"
     " WHERE code_hash = $1 AND kind = $2 AND confirmed_at IS NULL AND spent_at IS NULL RETURNING 1"},
    // Nobody can use a code a day after it expired: swept when new ones are made.
    {"sweep_telegram_codes", "DELETE FROM telegram_codes WHERE expires_at < now() - interval '1 day'"},
    // The bot's confirmation of a web login: once, while live.
    {"confirm_weblogin_code",
     "UPDATE telegram_codes SET confirmed_at = now(), confirmed_user_id = $2"
     " WHERE code_hash = $1 AND kind = 'weblogin' AND confirmed_at IS NULL AND spent_at IS NULL AND expires_at > now()"
     " RETURNING needs_approval"},
    // The bot's Confirm of a link its browser approves: the Telegram user is named, nothing
    // merges yet. Once, while live.
    {"confirm_link_code",
     "UPDATE telegram_codes SET confirmed_at = now(), confirmed_user_id = $2"
     " WHERE code_hash = $1 AND kind = 'link' AND needs_approval AND confirmed_at IS NULL AND spent_at IS NULL"
     "  AND expires_at > now() RETURNING 1"},
    // The browser's "not me": its own live link code ends, confirmed or not.
    {"decline_link_code",
     "UPDATE telegram_codes SET cancelled_at = now(), spent_at = now()"
     " WHERE code_hash = $1 AND kind = 'link' AND user_id = $2 AND spent_at IS NULL AND expires_at > now() RETURNING 1"},
    // The browser's "not me" for a web login it approves: the code ends (its row is locked
    // and checked confirmed and live by the caller).
    {"decline_weblogin_code",
     "UPDATE telegram_codes SET cancelled_at = now(), spent_at = now()"
     " WHERE code_hash = $1 AND kind = 'weblogin' AND spent_at IS NULL RETURNING 1"},
    // Who confirmed a code, for its browser's question.
    {"telegram_code_confirmer",
     "SELECT u.telegram_id, u.username, u.first_name FROM telegram_codes c JOIN users u ON u.id = c.confirmed_user_id"
     " WHERE c.code_hash = $1"},
    // Locked: concurrent polls of one code queue up, and only the first spends it.
    {"lock_telegram_code",
     "SELECT kind, coalesce(user_id, 0) AS user_id, coalesce(confirmed_user_id, 0) AS confirmed_user_id,"
     " confirmed_at IS NOT NULL AS confirmed, spent_at IS NOT NULL AS spent, expires_at <= now() AS expired,"
     " cancelled_at IS NOT NULL AS cancelled, coalesce(browser_hash, '') AS browser_hash, needs_approval"
     " FROM telegram_codes WHERE code_hash = $1 FOR UPDATE"},
    {"peek_telegram_code",
     "SELECT kind, coalesce(user_id, 0) AS user_id, coalesce(confirmed_user_id, 0) AS confirmed_user_id,"
     " confirmed_at IS NOT NULL AS confirmed, spent_at IS NOT NULL AS spent, expires_at <= now() AS expired,"
     " cancelled_at IS NOT NULL AS cancelled, coalesce(browser_hash, '') AS browser_hash, needs_approval"
     " FROM telegram_codes WHERE code_hash = $1"},
    {"spend_telegram_code",
     "UPDATE telegram_codes SET spent_at = now(), confirmed_at = coalesce(confirmed_at, now()),"
     " confirmed_user_id = coalesce(confirmed_user_id, $2) WHERE code_hash = $1"},

    // --- GET /linked ---
    {"linked_profile",
     "SELECT email, email_verified, password_hash IS NOT NULL AS has_password, telegram_id, username"
     " FROM users WHERE id = $1"},
    {"oauth_links_of_user",
     "SELECT provider, email, display_name FROM user_oauth_links WHERE user_id = $1 ORDER BY provider"},

    // --- e-mail linking ---
    // Only a verified address has an owner: an unverified one is nobody's yet
    // (docs/decisions.md), whoever registered it on the web.
    {"email_owner", "SELECT id FROM users WHERE email = $1 AND email_verified"},
    // The account that proves the address by its code takes it from an unverified web
    // registration ($2: the taker), whose mailed links end with it.
    {"release_unverified_email",
     "WITH freed AS ("
     "  UPDATE users SET email = NULL, updated_at = now()"
     "  WHERE email = $1 AND NOT email_verified AND id <> $2 RETURNING id"
     ") UPDATE email_verification_tokens SET used_at = now()"
     " WHERE used_at IS NULL AND user_id IN (SELECT id FROM freed)"},
    // A new request replaces the live code (one per user, the partial unique index).
    {"drop_live_email_link_code", "DELETE FROM email_link_codes WHERE user_id = $1 AND used_at IS NULL"},
    {"insert_email_link_code",
     "INSERT INTO email_link_codes (user_id, email, code_hash, password_hash, expires_at)"
     " VALUES ($1, $2, $3, $4, now() + $5::bigint * interval '1 second')"},
    // The live code, locked: concurrent confirmations wait here, and once one has set used_at
    // the others find no row (READ COMMITTED re-checks the WHERE after the wait).
    {"lock_email_link_code",
     "SELECT id, email, code_hash, password_hash, attempts, expires_at <= now() AS expired"
     " FROM email_link_codes WHERE user_id = $1 AND used_at IS NULL FOR UPDATE"},
    {"email_link_code_failed",
     "UPDATE email_link_codes SET attempts = attempts + 1 WHERE id = $1 RETURNING attempts"},
    {"use_email_link_code", "UPDATE email_link_codes SET used_at = now() WHERE id = $1 AND used_at IS NULL RETURNING 1"},
    {"set_linked_email",
     "UPDATE users SET email = $2, email_verified = true, password_hash = $3, updated_at = now() WHERE id = $1"},

    // --- the web→Telegram merge: $1 the web user, $2 the Telegram user, both rows locked ---
    {"lock_merge_user",
     "SELECT id, telegram_id, coalesce(email, '') AS email, email_verified, coalesce(password_hash, '') AS password_hash,"
     " balance_minor, trial_used, is_blocked FROM users WHERE id = $1 FOR UPDATE"},
    // A paid trial (TRIAL_PRICE) was bought like a plan: its ledger row says so.
    {"merge_subscription_of",
     "SELECT floor(extract(epoch FROM expire_at))::bigint AS expire_at, coalesce(panel_uuid::text, '') AS panel_uuid,"
     " is_trial AND NOT EXISTS (SELECT 1 FROM balance_ledger l WHERE l.user_id = $1 AND l.reason = 'trial') AS free_trial"
     " FROM subscriptions WHERE user_id = $1"},
    // What the web user was paid that the merge shows the person already had, or paid to
    // themselves: the balance credit of each balance code both activated (at the code's
    // value), and the commission the web user earned on the Telegram user's payments (the
    // Telegram account came in through the web account's own invite link).
    {"merge_repeated_rewards",
     "SELECT coalesce((SELECT sum(c.value) FROM promo_activations w"
     "   JOIN promo_activations t ON t.promo_code_id = w.promo_code_id AND t.user_id = $2"
     "   JOIN promo_codes c ON c.id = w.promo_code_id AND c.reward_type = 'balance'"
     "  WHERE w.user_id = $1), 0)::bigint AS promo_minor,"
     " coalesce((SELECT sum(amount_minor) FROM referral_earnings WHERE referrer_id = $1 AND referral_id = $2), 0)::bigint"
     "  AS commission_minor"},
    {"merge_drop_subscription", "DELETE FROM subscriptions WHERE user_id = $1"},
    {"merge_move_subscription",
     "WITH d AS (DELETE FROM traffic_snapshots WHERE user_id = $2)"
     " UPDATE subscriptions SET user_id = $2, updated_at = now() WHERE user_id = $1"},
    {"merge_move_traffic", "UPDATE traffic_snapshots SET user_id = $2 WHERE user_id = $1"},
    // The web row gives up what is unique (e-mail) and its money before the Telegram row takes them.
    // (The money moves through ledger_move: db/linking_repo.cpp merge_user_fields.)
    {"merge_empty_web_user", "UPDATE users SET email = NULL, updated_at = now() WHERE id = $1"},
    {"merge_into_telegram_user",
     "UPDATE users SET trial_used = trial_used OR $2::boolean,"
     " email = coalesce(email, NULLIF($3::text, '')),"
     " email_verified = CASE WHEN email IS NULL AND $3 <> '' THEN $4::boolean ELSE email_verified END,"
     " password_hash = CASE WHEN email IS NULL AND $3 <> '' THEN NULLIF($5::text, '') ELSE password_hash END,"
     " referred_by = coalesce(referred_by, (SELECT w.referred_by FROM users w WHERE w.id = $6::bigint AND w.referred_by <> $1::bigint)),"
     " updated_at = now() WHERE id = $1"},
    // An idempotency key the Telegram user has used too is dropped from the moved row.
    {"merge_move_transactions",
     "UPDATE transactions t SET user_id = $2, idempotency_key = CASE WHEN EXISTS ("
     "  SELECT 1 FROM transactions o WHERE o.user_id = $2 AND o.idempotency_key = t.idempotency_key)"
     " THEN NULL ELSE t.idempotency_key END WHERE t.user_id = $1"},
    {"merge_move_referrer_earnings", "UPDATE referral_earnings SET referrer_id = $2 WHERE referrer_id = $1"},
    {"merge_move_referral_earnings", "UPDATE referral_earnings SET referral_id = $2 WHERE referral_id = $1"},
    // One open ticket per user: the web user's open one is closed when the Telegram user has one.
    {"merge_close_clashing_ticket",
     "UPDATE support_tickets SET status = 'closed', updated_at = now() WHERE user_id = $1 AND status <> 'closed'"
     " AND EXISTS (SELECT 1 FROM support_tickets o WHERE o.user_id = $2 AND o.status <> 'closed')"},
    {"merge_move_tickets", "UPDATE support_tickets SET user_id = $2 WHERE user_id = $1"},
    // A code both used counts once (the web user's activation goes with its row).
    {"merge_move_promo_activations",
     "UPDATE promo_activations p SET user_id = $2 WHERE user_id = $1"
     " AND NOT EXISTS (SELECT 1 FROM promo_activations o WHERE o.user_id = $2 AND o.promo_code_id = p.promo_code_id)"},
    {"merge_move_events", "UPDATE events SET user_id = $2 WHERE user_id = $1"},
    {"merge_move_referrals",
     "UPDATE users SET referred_by = CASE WHEN id = $2::bigint THEN NULL ELSE $2::bigint END WHERE referred_by = $1"},
    // The web account's sessions end with it ($2, the Telegram user, keeps its own): a
    // browser that held them signs in again, as the merged account.
    {"merge_end_web_sessions", "DELETE FROM refresh_tokens WHERE user_id = $1 AND user_id <> $2"},
    {"merge_move_oauth_links",
     "UPDATE user_oauth_links l SET user_id = $2 WHERE user_id = $1"
     " AND NOT EXISTS (SELECT 1 FROM user_oauth_links o WHERE o.user_id = $2 AND o.provider = l.provider)"},
    {"merge_record",
     "INSERT INTO events (user_id, kind, payload) VALUES ($1, 'account_merged', $2::jsonb)"},
    {"merge_delete_web_user", "DELETE FROM users WHERE id = $1"},
    };
}

}  // namespace cabinet
