-- The owner's payments (issue 48): what each provider notification did to a payment (its
-- webhook history, on the payment's detail), and the lists' filters read newest first.

CREATE TABLE IF NOT EXISTS payment_events (
    id bigserial PRIMARY KEY,
    transaction_id bigint NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
    provider text NOT NULL,   -- yookassa, cryptobot, stars, or 'owner' for a refund from the cabinet
    outcome text NOT NULL,    -- paid, paid late, replay, underpaid, refused, second charge, refunded, partial refund, canceled…
    amount bigint,            -- what the notification said was paid or refunded, in its units
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS payment_events_transaction_idx ON payment_events (transaction_id, id);

-- A status filter (refunded, failed: rare) reads its own rows newest first.
CREATE INDEX IF NOT EXISTS transactions_status_id_idx ON transactions (status, id);
