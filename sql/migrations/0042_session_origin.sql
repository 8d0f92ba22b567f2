-- Web sessions that can be ended (docs/decisions.md "Sessions end"). Each refresh-token
-- family records how it began (`origin`: password, telegram, oauth:<provider>), so that
-- unlinking a provider ends the sessions it opened, and when (`family_started_at`), so that
-- rotation cannot keep a family alive past WEB_SESSION_MAX_AGE_S. Rows of families begun
-- before this migration get their family's first token's time and no origin.
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS origin TEXT NOT NULL DEFAULT '';
ALTER TABLE refresh_tokens ADD COLUMN IF NOT EXISTS family_started_at TIMESTAMPTZ;
UPDATE refresh_tokens r SET family_started_at = f.started
  FROM (SELECT family_id, min(created_at) AS started FROM refresh_tokens GROUP BY family_id) f
 WHERE r.family_id = f.family_id AND r.family_started_at IS NULL;
ALTER TABLE refresh_tokens ALTER COLUMN family_started_at SET DEFAULT now();
ALTER TABLE refresh_tokens ALTER COLUMN family_started_at SET NOT NULL;
