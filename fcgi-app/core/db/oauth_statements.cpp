#include "db/statements.hpp"

namespace cabinet {

// OAuth login and linking (db/oauth_repo.cpp, migrations 0008_oauth_links, 0009_oauth_states).
std::vector<Statement> oauth_statements() {
    return {
    // States are pruned here rather than by a job: a day after expiry nobody needs them, and
    // the index on expires_at keeps the delete cheap.
    {"oauth_state_insert",
     "WITH gc AS (DELETE FROM oauth_states WHERE expires_at < now() - interval '1 day')"
     " INSERT INTO oauth_states (state_hash, provider, code_verifier, user_id, expires_at, browser_hash)"
     " VALUES ($1, $2, $3, NULLIF($4::bigint, 0), now() + $5::bigint * interval '1 second', $6)"},
    // Single use: the row lock makes concurrent callbacks wait, then find used_at set.
    {"oauth_state_consume",
     "UPDATE oauth_states SET used_at = now()"
     " WHERE state_hash = $1 AND provider = $2 AND used_at IS NULL AND expires_at > now()"
     " RETURNING code_verifier, COALESCE(user_id, 0) AS user_id, browser_hash"},
    {"oauth_identity_lock", "SELECT pg_advisory_xact_lock(hashtextextended('oauth:' || $1 || ':' || $2, 0))"},
    {"oauth_link_owner", "SELECT user_id FROM user_oauth_links WHERE provider = $1 AND subject = $2"},
    {"oauth_link_of_user", "SELECT subject FROM user_oauth_links WHERE user_id = $1 AND provider = $2"},
    {"oauth_link_insert",
     "INSERT INTO user_oauth_links (user_id, provider, subject, email, display_name)"
     " VALUES ($1, $2, $3, NULLIF($4, ''), $5)"},
    {"oauth_link_refresh",
     "UPDATE user_oauth_links SET email = NULLIF($3, ''), display_name = $4 WHERE provider = $1 AND subject = $2"},
    {"oauth_links_count", "SELECT count(*) FROM user_oauth_links WHERE user_id = $1"},
    {"oauth_link_delete", "DELETE FROM user_oauth_links WHERE user_id = $1 AND provider = $2 RETURNING id"},
    // As register_web_user, without a password; the e-mail (when given) is verified, and
    // left out rather than failing when it is taken.
    {"register_oauth_user",
     "WITH ins AS ("
     "  INSERT INTO users (email, email_verified, language, currency, referral_code)"
     "  SELECT NULLIF($1, ''), $1 <> '', $3, $4, $5"
     "  WHERE $1 = '' OR NOT EXISTS (SELECT 1 FROM users WHERE email = $1)"
     "  ON CONFLICT (email) DO NOTHING"
     "  RETURNING id"
     "), ev AS ("
     "  INSERT INTO events (user_id, kind, payload)"
     "  SELECT id, 'registration', jsonb_build_object('source', 'oauth', 'provider', $2::text) FROM ins"
     ") SELECT id FROM ins"},
    };
}

}  // namespace cabinet
