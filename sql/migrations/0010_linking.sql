-- Telegram web login and account linking (issue 7; docs/decisions.md "Telegram web login
-- and account linking (issue 7)").

-- One-time codes that the Telegram bot confirms: `weblogin` (the browser polls for a
-- session, 5 min) and `link` (the web account `user_id` is merged into the Telegram
-- account that opens it, 15 min). Only SHA-256 of the code is stored (hex), so a database
-- read yields no live code; spent_at makes a code single-use.
CREATE TABLE telegram_codes (
    code_hash         TEXT PRIMARY KEY CHECK (code_hash ~ '^[0-9a-f]{64}$'),
    kind              TEXT NOT NULL CHECK (kind IN ('weblogin', 'link')),
    user_id           BIGINT REFERENCES users(id) ON DELETE CASCADE,    -- the web user of a `link` code
    confirmed_user_id BIGINT REFERENCES users(id) ON DELETE CASCADE,    -- the Telegram user who opened it
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at        TIMESTAMPTZ NOT NULL,
    confirmed_at      TIMESTAMPTZ,
    spent_at          TIMESTAMPTZ,
    CHECK (kind <> 'link' OR user_id IS NOT NULL),
    CHECK (confirmed_at IS NULL OR confirmed_user_id IS NOT NULL)
);
-- Start is unauthenticated: stale codes are swept by expiry.
CREATE INDEX telegram_codes_expires_idx ON telegram_codes (expires_at);

-- Linking an e-mail (and password) to an account: a 6-digit code mailed to the address,
-- stored as SHA-256 of "<id>:<code>"; the Argon2id hash of the chosen password waits here
-- until the code is confirmed (the password itself is never stored). At most 5 wrong
-- attempts; then the code is dead.
CREATE TABLE email_link_codes (
    id            BIGSERIAL PRIMARY KEY,
    user_id       BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    email         TEXT NOT NULL CHECK (email = lower(email)),
    code_hash     TEXT NOT NULL CHECK (code_hash ~ '^[0-9a-f]{64}$'),
    password_hash TEXT NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at    TIMESTAMPTZ NOT NULL,
    attempts      INTEGER NOT NULL DEFAULT 0 CHECK (attempts BETWEEN 0 AND 5),
    used_at       TIMESTAMPTZ
);
-- One live code per user: a new request replaces the previous one.
CREATE UNIQUE INDEX email_link_codes_live_idx ON email_link_codes (user_id) WHERE used_at IS NULL;
