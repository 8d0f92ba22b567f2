-- GET /dl opens a Happ encrypted link (the panel's crypto_link) only when it is one this
-- shop handed out (docs/decisions.md "Hostile input"): found by equality, on a public page.
CREATE INDEX subscriptions_crypto_link_idx ON subscriptions USING hash (crypto_link) WHERE crypto_link <> '';
