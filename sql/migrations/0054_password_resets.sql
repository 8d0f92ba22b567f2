-- Passwords that can be reset (issue 49): "forgot password" mails a link with a single-use
-- token, valid 30 minutes. As for verification links only SHA-256 of the token is stored,
-- so a database read yields no working link; used_at makes it single-use. created_at also
-- paces the mails: at most one a minute per account, whoever asks.
CREATE TABLE IF NOT EXISTS password_reset_tokens (
    token_hash TEXT PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,                 -- the address the link was sent to
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS password_reset_tokens_user_idx ON password_reset_tokens (user_id, created_at DESC);

-- Verification mails sent again on request are paced the same way: the newest link's
-- created_at per account, read through this index.
CREATE INDEX IF NOT EXISTS email_verification_tokens_user_created_idx ON email_verification_tokens (user_id, created_at DESC);
