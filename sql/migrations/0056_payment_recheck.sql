-- The worker asks the gateway about online payments still waiting for their notification
-- (issue 49: "a paid order is fulfilled even if every notification was lost";
-- services/payment_recheck.hpp). provider_checked_at is when it last asked: a pending
-- payment is asked again each PAYMENT_RECHECK_AFTER_S, and an expired one once more after
-- its expiry (paid in its last minutes, its notification lost).
ALTER TABLE transactions ADD COLUMN IF NOT EXISTS provider_checked_at timestamptz;

-- The payments the pass looks at: unpaid, with a provider's payment, that end(ed) around
-- now. Unpaid canceled rows stay in it, but the pass reads only the last day's expiries.
CREATE INDEX IF NOT EXISTS transactions_gateway_unpaid_idx ON transactions (expires_at)
    WHERE paid_at IS NULL AND provider_payment_id IS NOT NULL AND provider IN ('yookassa', 'cryptobot');
