-- Web cabinet sessions (issue 7; SPEC-GAPS "Auth and sessions"; docs/decisions.md
-- "Web sessions (issue 7)"): e-mail + password accounts, verification links, refresh
-- tokens, and the PostgreSQL side of the brute-force counters.

-- E-mail addresses are stored lower-cased; with this check the existing UNIQUE (email)
-- is a unique index on lower(email), so no second index is needed.
UPDATE users SET email = lower(email) WHERE email IS NOT NULL AND email <> lower(email);
ALTER TABLE users ADD CONSTRAINT users_email_lower CHECK (email = lower(email));

-- One-time verification links. Only SHA-256 of the random token is stored (hex), so a
-- database read does not yield working links; used_at makes a token single-use.
CREATE TABLE email_verification_tokens (
    token_hash TEXT PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,                 -- the address the link was sent to
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,          -- created_at + VERIFY_TOKEN_TTL_S (24 h)
    used_at    TIMESTAMPTZ
);
CREATE INDEX email_verification_tokens_user_idx ON email_verification_tokens (user_id);

-- Refresh tokens of web sessions, stored hashed. Each login starts a family; a refresh
-- rotates the presented token (rotated_at) and adds the next one to its family. Presenting
-- a rotated token again means it leaked: the whole family is revoked (revoked_at).
CREATE TABLE refresh_tokens (
    id         BIGSERIAL PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    family_id  UUID NOT NULL,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,          -- created_at + REFRESH_TOKEN_TTL_S (7 days)
    rotated_at TIMESTAMPTZ,
    revoked_at TIMESTAMPTZ
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- Brute-force counters when Redis is unavailable: one fixed window per key
-- ('ip:<address>' or 'email:<address>'), restarted when it is older than the window.
CREATE TABLE auth_failures (
    key          TEXT PRIMARY KEY,
    window_start TIMESTAMPTZ NOT NULL DEFAULT now(),
    count        INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0)
);
