-- The owner's cabinet, part 2 (issue 48): finding a customer among a million in a few
-- milliseconds, and the owner's actions on one done once however often they are sent.

-- A name fragment ("ann", "petrov") is found through trigrams of the customer's names;
-- pg_trgm is a trusted extension, so the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE OR REPLACE FUNCTION customer_names(first_name text, last_name text, username text)
    RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
    RETURN lower(first_name || ' ' || last_name || ' ' || username);

CREATE INDEX IF NOT EXISTS users_names_trgm_idx ON users
    USING gin (customer_names(first_name, last_name, username) gin_trgm_ops);

-- "@name" finds usernames that start with it; an e-mail is found by its beginning too.
CREATE INDEX IF NOT EXISTS users_username_prefix_idx ON users (lower(username) text_pattern_ops) WHERE username <> '';
CREATE INDEX IF NOT EXISTS users_email_prefix_idx ON users (email text_pattern_ops) WHERE email IS NOT NULL;

-- The filters read the newest first: each filter's rows in id order, so a page is the
-- first 50 entries of one index, however rare the filter's customers are.
CREATE INDEX IF NOT EXISTS users_blocked_idx ON users (id) WHERE is_blocked;
CREATE INDEX IF NOT EXISTS users_promo_group_id_idx ON users (promo_group_id, id) WHERE promo_group_id IS NOT NULL;
DROP INDEX IF EXISTS users_promo_group_idx;

-- A subscription link pasted into the search: its short id is the link's last segment.
CREATE INDEX IF NOT EXISTS subscriptions_short_uuid_idx ON subscriptions (short_uuid) WHERE short_uuid IS NOT NULL;

-- "Customers without a subscription": rare in a shop that sells, so found through a flag
-- the subscription's own insert and delete keep, not by probing a million subscriptions.
ALTER TABLE users ADD COLUMN IF NOT EXISTS subscribed boolean NOT NULL DEFAULT false;
UPDATE users u SET subscribed = true
    WHERE NOT u.subscribed AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = u.id);
CREATE INDEX IF NOT EXISTS users_unsubscribed_idx ON users (id) WHERE NOT subscribed;

CREATE OR REPLACE FUNCTION users_subscribed_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE users SET subscribed = false WHERE id = OLD.user_id AND subscribed;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        UPDATE users SET subscribed = true WHERE id = NEW.user_id AND NOT subscribed;
    END IF;
    RETURN NULL;
END
$$;
DROP TRIGGER IF EXISTS subscriptions_subscribed_insert ON subscriptions;
CREATE TRIGGER subscriptions_subscribed_insert AFTER INSERT ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION users_subscribed_track();
DROP TRIGGER IF EXISTS subscriptions_subscribed_delete ON subscriptions;
CREATE TRIGGER subscriptions_subscribed_delete AFTER DELETE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION users_subscribed_track();
DROP TRIGGER IF EXISTS subscriptions_subscribed_move ON subscriptions;
CREATE TRIGGER subscriptions_subscribed_move AFTER UPDATE OF user_id ON subscriptions
    FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION users_subscribed_track();

-- What the log says about one customer (their card), newest first.
CREATE INDEX IF NOT EXISTS audit_log_entity_idx ON audit_log (entity, id) WHERE entity IS NOT NULL;

-- An owner's action on a customer, by the Idempotency-Key its page sent: the second
-- request with a key waits for the first's transaction, then answers what it answered.
CREATE TABLE IF NOT EXISTS admin_actions (
    idempotency_key text PRIMARY KEY CHECK (char_length(idempotency_key) BETWEEN 1 AND 100),
    actor text NOT NULL,
    action text NOT NULL,
    user_id bigint NOT NULL,
    answer text NOT NULL,  -- the first answer's JSON, byte for byte
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS admin_actions_created_idx ON admin_actions (created_at);

-- The promo codes a customer used (their card).
CREATE INDEX IF NOT EXISTS promo_activations_user_idx ON promo_activations (user_id);
