-- Pending OAuth logins (issue 7): one row per GET /auth/oauth/{provider}/authorize, consumed
-- once by POST /auth/oauth/callback within 10 minutes. Only the state's SHA-256 is stored,
-- so a database read yields no state that could complete someone's login.
CREATE TABLE oauth_states (
    state_hash    TEXT PRIMARY KEY,                      -- hex SHA-256 of the state
    provider      TEXT NOT NULL CHECK (provider IN ('google', 'yandex', 'vk')),
    code_verifier TEXT NOT NULL DEFAULT '',              -- PKCE (vk), made by us, never shown
    user_id       BIGINT REFERENCES users(id) ON DELETE CASCADE,  -- link mode: who asked
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    used_at       TIMESTAMPTZ
);
-- Old rows are pruned by expiry (see the oauth_state_insert statement).
CREATE INDEX oauth_states_expires_idx ON oauth_states (expires_at);
