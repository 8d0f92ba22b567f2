-- When the panel's traffic figure was last copied into traffic_used_bytes (GET /traffic or
-- the panel sync). GET /traffic asks the panel again only when this is older than
-- TRAFFIC_FRESH_S (issue 17): a chart opened twice a minute costs the panel one call.
-- A measurement, like the counter: the revision trigger does not look at it.
ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS traffic_synced_at TIMESTAMPTZ;
