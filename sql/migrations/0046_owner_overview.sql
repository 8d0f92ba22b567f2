-- The owner's cabinet (issue 47): the indexes its Overview and lists read by, so each
-- figure is a range read of a small index, not a scan of a million customers. Revenue,
-- subscriptions and trials come from the rollups of sql 0047.

-- The subscriptions that end today, counted as they are (0047 counts the later days).
CREATE INDEX IF NOT EXISTS subscriptions_status_expire_idx ON subscriptions (status, expire_at);

-- New customers in the last 24 hours.
CREATE INDEX IF NOT EXISTS users_created_idx ON users (created_at);

-- The newest backup job (the backup's state); jobs may hold many rows of other kinds.
CREATE INDEX IF NOT EXISTS jobs_backup_idx ON jobs (id) WHERE kind = 'backup';

-- Members of a promo group (the Plans and prices section's group list).
CREATE INDEX IF NOT EXISTS users_promo_group_idx ON users (promo_group_id) WHERE promo_group_id IS NOT NULL;
