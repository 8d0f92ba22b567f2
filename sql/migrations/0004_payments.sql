-- Online payments and Telegram Stars: a purchase is a pending transaction until the
-- provider confirms it (paid_at), then the worker fulfils it (status completed).
ALTER TABLE transactions ADD COLUMN provider TEXT;              -- stars, yookassa, cryptobot
ALTER TABLE transactions ADD COLUMN paid_at TIMESTAMPTZ;       -- provider confirmed the money
ALTER TABLE transactions ADD COLUMN confirmation_url TEXT;     -- where the buyer pays
ALTER TABLE transactions ADD COLUMN failure_reason TEXT;
CREATE INDEX transactions_pending_idx ON transactions (created_at) WHERE status = 'pending';
