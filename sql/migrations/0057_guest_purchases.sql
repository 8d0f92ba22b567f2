-- Buying without an account (issue 49: POST /api/cabinet/auth/guest/purchase, the original
-- web cabinet's "Buy now"): each guest purchase, the account it was made for, and the
-- one-time sign-in it may carry (POST /api/cabinet/auth/login/auto). token_hash is set only
-- when the purchase created the account: for an address we knew, its owner is mailed
-- instead and nobody is signed in. The token is bound to the buying browser (browser_hash:
-- the hash of its __Host- cookie), single-use (used_at) and short-lived (expires_at).
-- link_mailed_at: the subscription link went to the address once the payment was fulfilled.
CREATE TABLE IF NOT EXISTS guest_purchases (
    transaction_id bigint PRIMARY KEY REFERENCES transactions (id) ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash text UNIQUE,
    browser_hash text NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz,
    link_mailed_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS guest_purchases_user_idx ON guest_purchases (user_id);
