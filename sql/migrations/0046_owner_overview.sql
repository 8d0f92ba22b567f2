-- The owner's cabinet (issue 47): the indexes its Overview and lists read by, so each
-- figure is a range read of a small index, not a scan of a million customers
-- (docs/benchmarks.md "The owner's Overview at a million customers").

-- Revenue: completed payments that brought money from outside (a provider: Stars, a
-- gateway), by the moment they completed; the amount rides in the index.
CREATE INDEX IF NOT EXISTS transactions_revenue_idx ON transactions (completed_at) INCLUDE (amount_minor)
    WHERE status = 'completed' AND provider IS NOT NULL;

-- Active and trial subscriptions by status and expiry.
CREATE INDEX IF NOT EXISTS subscriptions_status_expire_idx ON subscriptions (status, expire_at);

-- New customers in the last 24 hours.
CREATE INDEX IF NOT EXISTS users_created_idx ON users (created_at);

-- Trials begun in the last 30 days (trial-to-paid conversion).
CREATE INDEX IF NOT EXISTS subscription_history_trial_idx ON subscription_history (created_at) WHERE source = 'trial';

-- The newest backup job (the backup's state); jobs may hold many rows of other kinds.
CREATE INDEX IF NOT EXISTS jobs_backup_idx ON jobs (id) WHERE kind = 'backup';

-- Members of a promo group (the Plans and prices section's group list).
CREATE INDEX IF NOT EXISTS users_promo_group_idx ON users (promo_group_id) WHERE promo_group_id IS NOT NULL;
