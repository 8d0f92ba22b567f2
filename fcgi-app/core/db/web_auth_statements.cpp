#include "db/statements.hpp"

namespace cabinet {

// Web cabinet sessions (db/web_auth_repo.cpp, sql/migrations/0006_web_auth.sql).
std::vector<Statement> web_auth_statements() {
    return {
    // A web-only account (telegram_id NULL) and its registration event, in one statement;
    // nothing when the e-mail is taken (the caller then mails the owner instead).
    {"register_web_user",
     "WITH ins AS ("
     "  INSERT INTO users (email, email_verified, password_hash, language, currency, referral_code)"
     "  VALUES ($1, false, $2, $3, $4, $5)"
     "  ON CONFLICT (email) DO NOTHING"
     "  RETURNING id"
     "), ev AS ("
     "  INSERT INTO events (user_id, kind, payload)"
     "  SELECT id, 'registration', jsonb_build_object('source', 'web') FROM ins"
     ") SELECT id FROM ins"},
    {"web_login_by_email",
     "SELECT id, email, email_verified, password_hash, is_blocked, language FROM users WHERE email = $1"},
    {"web_user_by_id",
     "SELECT id, email, email_verified, password_hash, is_blocked, language FROM users WHERE id = $1"},
    {"update_password_hash", "UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1"},
    // A registration's link: it carries that registration's password ($5). A contested
    // registration ($6: the unverified account existed before it) marks every link of the
    // account contested, its own included: none of them verifies without its password.
    {"insert_verification_token",
     "WITH older AS ("
     "  UPDATE email_verification_tokens SET contested = true WHERE user_id = $2 AND $6"
     ") INSERT INTO email_verification_tokens (token_hash, user_id, email, expires_at, password_hash, contested)"
     " VALUES ($1, $2, $3, now() + $4::bigint * interval '1 second', $5, $6)"},
    // "Forgot password": a link for account $2, unless one was made for it within the last
    // minute (the pace of the mails, whoever asks); returns a row when it was made.
    {"insert_reset_token",
     "INSERT INTO password_reset_tokens (token_hash, user_id, email, expires_at)"
     " SELECT $1, $2, $3, now() + $4::bigint * interval '1 second'"
     " WHERE NOT EXISTS (SELECT 1 FROM password_reset_tokens WHERE user_id = $2 AND created_at > now() - interval '1 minute')"
     " RETURNING user_id"},
    // Single use, as a verification link; every other live link of the account ends with it.
    {"use_reset_token",
     "WITH used AS ("
     "  UPDATE password_reset_tokens SET used_at = now()"
     "  WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now() RETURNING user_id, email"
     "), others AS ("
     "  UPDATE password_reset_tokens SET used_at = now()"
     "  WHERE user_id = (SELECT user_id FROM used) AND used_at IS NULL AND token_hash <> $1"
     ") SELECT user_id, email FROM used"},
    // A verification link sent again: only for an account not verified yet, at most one a
    // minute (the newest link's age).
    {"verification_resend_due",
     "SELECT u.id, u.email, coalesce(u.password_hash, '') AS password_hash, u.language,"
     "       EXISTS (SELECT 1 FROM email_verification_tokens c WHERE c.user_id = u.id AND c.contested) AS contested"
     " FROM users u"
     " WHERE u.email = $1 AND NOT u.email_verified AND NOT EXISTS ("
     "   SELECT 1 FROM email_verification_tokens t WHERE t.user_id = u.id AND t.created_at > now() - interval '1 minute')"},
    // The e-mail sign-in taken off an account that has another way in (Telegram, OAuth).
    {"remove_email_login",
     "UPDATE users SET email = NULL, email_verified = false, password_hash = NULL, updated_at = now()"
     " WHERE id = $1 AND email IS NOT NULL"
     "   AND (telegram_id IS NOT NULL OR EXISTS (SELECT 1 FROM user_oauth_links l WHERE l.user_id = users.id))"
     " RETURNING id"},
    // A live link, read without using it: a contested one needs its password checked first.
    {"peek_verification_token",
     "SELECT user_id, email, coalesce(password_hash, '') AS password_hash, contested"
     " FROM email_verification_tokens WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()"},
    // Single use: the row lock makes concurrent uses of one token wait, then find used_at set.
    {"use_verification_token",
     "UPDATE email_verification_tokens SET used_at = now()"
     " WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()"
     " RETURNING user_id, email, coalesce(password_hash, '') AS password_hash, contested"},
    // The address is the account's now: the other registrations' links end.
    {"mark_email_verified",
     "WITH others AS ("
     "  UPDATE email_verification_tokens SET used_at = now() WHERE user_id = $1 AND used_at IS NULL"
     ") UPDATE users SET email_verified = true, updated_at = now() WHERE id = $1 AND email = $2"},
    // The first token of a new family: a session begun by $4 (password, telegram, oauth:<p>).
    {"insert_refresh_family",
     "INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at, origin)"
     " VALUES ($1, gen_random_uuid(), $2, now() + $3::bigint * interval '1 second', $4)"
     " RETURNING family_id::text"},
    // The next token of token $2's family: its origin and start carried over, and never
    // valid past the family's end ($4 seconds after its start).
    {"insert_refresh_successor",
     "INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at, origin, family_started_at)"
     " SELECT $1, family_id, user_id,"
     "  least(now() + $3::bigint * interval '1 second', family_started_at + $4::bigint * interval '1 second'),"
     "  origin, family_started_at"
     " FROM refresh_tokens WHERE id = $2"},
    // $2: the grace period (auth/refresh_grace.hpp) in seconds; $3: a family's lifetime
    // (WEB_SESSION_MAX_AGE_S): a family past it is expired whatever its token says.
    {"lock_refresh_token",
     "SELECT id, family_id::text AS family_id, user_id, rotated_at IS NOT NULL AS rotated,"
     // Revocation is of a whole family: a token whose family lost any token to it is
     // revoked too, whatever its own row says (a successor a refresh made while the
     // revocation ran: web_auth_repo.cpp).
     " (revoked_at IS NOT NULL OR EXISTS (SELECT 1 FROM refresh_tokens f"
     "   WHERE f.family_id = refresh_tokens.family_id AND f.revoked_at IS NOT NULL)) AS revoked,"
     " expires_at <= now() OR family_started_at <= now() - $3::bigint * interval '1 second' AS expired,"
     " CASE WHEN rotated_at > now() - make_interval(secs => $2) THEN coalesce(successor_sealed, '') ELSE '' END"
     "  AS successor_sealed"
     " FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE"},
    {"rotate_refresh_token",
     "UPDATE refresh_tokens SET rotated_at = now(), successor_sealed = NULLIF($2, '') WHERE id = $1"},
    {"revoke_refresh_family",
     "UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1::uuid AND revoked_at IS NULL"},
    // Before a revocation: the tokens a refresh could be using (each family's live head),
    // locked, so that a refresh under way commits first, and the UPDATE that follows (a
    // statement of its own, so with a new snapshot) also sees the successor it made. Only
    // the heads: a session refreshed every 15 minutes keeps hundreds of rotated rows.
    {"lock_user_refresh_tokens",
     "SELECT 1 FROM refresh_tokens WHERE user_id = $1 AND revoked_at IS NULL AND rotated_at IS NULL"
     " AND expires_at > now() ORDER BY id FOR UPDATE"},
    {"lock_refresh_family_of_token",
     "SELECT 1 FROM refresh_tokens WHERE revoked_at IS NULL AND rotated_at IS NULL AND expires_at > now()"
     " AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) ORDER BY id FOR UPDATE"},
    // Sign-outs of a user's other sessions: every family but $2 (empty: all of them), or
    // those of one origin ($3, not empty). Counts the families ended.
    {"revoke_refresh_families",
     "WITH ended AS ("
     "  UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL"
     "   AND family_id IS DISTINCT FROM NULLIF($2, '')::uuid AND ($3 = '' OR origin = $3)"
     "   AND expires_at > now() RETURNING family_id"
     ") SELECT count(DISTINCT family_id) FROM ended"},
    // The sessions of a user that ended within the last $2 seconds: their access tokens,
    // which name their session (`sid`), are refused (app/authenticate.cpp).
    {"ended_sessions",
     "SELECT DISTINCT family_id::text FROM refresh_tokens"
     " WHERE user_id = $1 AND revoked_at > now() - $2::bigint * interval '1 second'"},
    // The token's user, whether or not its session had ended before.
    {"revoke_refresh_family_of_token",
     "WITH ended AS ("
     "  UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND family_id ="
     "   (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)"
     ") SELECT user_id FROM refresh_tokens WHERE token_hash = $1"},
    // Brute-force counters when Redis is down: a fixed window per key, restarted when stale.
    {"auth_failure_count",
     "SELECT count, GREATEST(1, ceil(extract(epoch FROM window_start + $2::bigint * interval '1 second' - now())))::bigint,"
     "  floor(extract(epoch FROM last_at))::bigint"
     " FROM auth_failures WHERE key = $1 AND window_start > now() - $2::bigint * interval '1 second'"},
    {"auth_failure_hit",
     "INSERT INTO auth_failures AS f (key, window_start, count) VALUES ($1, now(), 1)"
     " ON CONFLICT (key) DO UPDATE SET last_at = now(),"
     "  count = CASE WHEN f.window_start > now() - $2::bigint * interval '1 second' THEN f.count + 1 ELSE 1 END,"
     "  window_start = CASE WHEN f.window_start > now() - $2::bigint * interval '1 second' THEN f.window_start ELSE now() END"},
    // Guest purchases (services/guest_purchase.hpp, sql 0057).
    {"insert_guest_purchase",
     "INSERT INTO guest_purchases (transaction_id, user_id, token_hash, browser_hash, expires_at)"
     " VALUES ($1, $2, NULLIF($3, ''), $4, now() + make_interval(secs => $5))"},
    // The token's one use: bound to its browser, in time, never twice (the row lock makes
    // two redemptions at once one and nothing).
    {"redeem_guest_token",
     "UPDATE guest_purchases SET used_at = now()"
     " WHERE token_hash = $1 AND browser_hash = $2 AND used_at IS NULL AND expires_at > now()"
     " RETURNING user_id, (SELECT u.telegram_id FROM users u WHERE u.id = guest_purchases.user_id) AS telegram_id"},
    {"guest_link_to_mail",
     "UPDATE guest_purchases g SET link_mailed_at = now() FROM users u"
     " WHERE g.transaction_id = $1 AND g.link_mailed_at IS NULL AND u.id = g.user_id AND u.email IS NOT NULL"
     " RETURNING u.email, u.language,"
     "  (SELECT subscription_url FROM subscriptions s WHERE s.user_id = u.id) AS subscription_url"},
    };
}

}  // namespace cabinet
