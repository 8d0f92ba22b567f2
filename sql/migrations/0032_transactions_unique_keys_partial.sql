-- The two optional keys of a transaction are unique only where they are set (issue 17;
-- docs/decisions.md "PostgreSQL's share of a purchase"). A UNIQUE constraint indexes every
-- row, NULLs included, though NULLs never conflict and every lookup names a value
-- (`provider_payment_id = $2`, `idempotency_key = $2`, which the partial indexes serve). A
-- balance purchase or a referral commission has neither key, so each of them wrote two
-- index entries that no query or conflict could ever use. Same uniqueness, same lookups.
CREATE UNIQUE INDEX IF NOT EXISTS transactions_idempotency_key_idx ON transactions (user_id, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_user_id_idempotency_key_key;
CREATE UNIQUE INDEX IF NOT EXISTS transactions_provider_payment_id_idx ON transactions (provider_payment_id)
    WHERE provider_payment_id IS NOT NULL;
ALTER TABLE transactions DROP CONSTRAINT IF EXISTS transactions_provider_payment_id_key;
