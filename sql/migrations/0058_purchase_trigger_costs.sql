-- A purchase's triggers without their per-statement planning (issue 51; docs/decisions.md
-- "A purchase's machine time"). Profiled on a purchase's backend, about a sixth of its CPU
-- went to work that gives the same answer every time:
-- - the WHEN clauses of sql 0047's subscriptions triggers call overview_expiry_kind(), a SQL
--   function PostgreSQL inlines each time a statement prepares the clause: every write of
--   a subscription parsed and analysed the function's body eight times;
-- - the trigger bodies called overview_*_add(), SQL functions that are not inlined (they
--   INSERT): PostgreSQL parses and plans such a function on every call, where an INSERT
--   written in the PL/pgSQL body keeps its plan for the session;
-- - a paid grant looked for the customer's latest trial by walking all of the customer's
--   history rows (subscription_history_user_idx), and most customers never had a trial.
-- The rollups hold the same rows as before: the same kinds, days, buckets and signs.

-- ---- subscriptions by the UTC day they end (sql 0047): the kind written out in each place.
CREATE OR REPLACE FUNCTION overview_expiry_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    k_old TEXT;
    k_new TEXT;
    d_old DATE;
    d_new DATE;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        k_old := CASE WHEN OLD.status = 'trial' THEN 'trial'
                      WHEN OLD.status IN ('active', 'limited') AND NOT OLD.is_trial THEN 'paid' END;
        d_old := (OLD.expire_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        k_new := CASE WHEN NEW.status = 'trial' THEN 'trial'
                      WHEN NEW.status IN ('active', 'limited') AND NOT NEW.is_trial THEN 'paid' END;
        d_new := (NEW.expire_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF (k_old, d_old) IS NOT DISTINCT FROM (k_new, d_new) THEN
        RETURN NULL;  -- an update that moves nothing counted (the WHEN below is coarser)
    END IF;
    -- One statement for a renewal's two rows (the old day's -1, the new day's +1).
    INSERT INTO overview_expiries (kind, day, subscriptions)
    SELECT kind, day, n FROM (VALUES (k_old, d_old, -1), (k_new, d_new, 1)) AS v(kind, day, n)
    WHERE kind IS NOT NULL;
    RETURN NULL;
END $$;

-- WHEN clauses of plain column tests: nothing to inline when a statement prepares them.
DROP TRIGGER IF EXISTS subscriptions_overview_insert ON subscriptions;
CREATE TRIGGER subscriptions_overview_insert AFTER INSERT ON subscriptions FOR EACH ROW
    WHEN (NEW.status = 'trial' OR NEW.status IN ('active', 'limited') AND NOT NEW.is_trial)
    EXECUTE FUNCTION overview_expiry_track();
DROP TRIGGER IF EXISTS subscriptions_overview_update ON subscriptions;
CREATE TRIGGER subscriptions_overview_update AFTER UPDATE OF status, is_trial, expire_at ON subscriptions FOR EACH ROW
    WHEN ((OLD.status = 'trial' OR OLD.status IN ('active', 'limited') AND NOT OLD.is_trial
           OR NEW.status = 'trial' OR NEW.status IN ('active', 'limited') AND NOT NEW.is_trial)
          AND (OLD.status, OLD.is_trial, OLD.expire_at) IS DISTINCT FROM (NEW.status, NEW.is_trial, NEW.expire_at))
    EXECUTE FUNCTION overview_expiry_track();
DROP TRIGGER IF EXISTS subscriptions_overview_delete ON subscriptions;
CREATE TRIGGER subscriptions_overview_delete AFTER DELETE ON subscriptions FOR EACH ROW
    WHEN (OLD.status = 'trial' OR OLD.status IN ('active', 'limited') AND NOT OLD.is_trial)
    EXECUTE FUNCTION overview_expiry_track();

-- ---- revenue (sql 0047): the INSERTs in the body.
CREATE OR REPLACE FUNCTION overview_revenue_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status = 'completed' AND OLD.provider IS NOT NULL AND OLD.completed_at IS NOT NULL THEN
        INSERT INTO overview_revenue (bucket, amount_minor) VALUES (overview_quarter(OLD.completed_at), -OLD.amount_minor);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status = 'completed' AND NEW.provider IS NOT NULL AND NEW.completed_at IS NOT NULL THEN
        INSERT INTO overview_revenue (bucket, amount_minor) VALUES (overview_quarter(NEW.completed_at), NEW.amount_minor);
    END IF;
    RETURN NULL;
END $$;

-- ---- trials and conversions (sql 0047): the INSERTs in the body, and the latest trial
-- found through an index of trial rows alone.
CREATE INDEX IF NOT EXISTS subscription_history_trial_idx ON subscription_history (user_id, id) WHERE source = 'trial';

CREATE OR REPLACE FUNCTION overview_trials_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    began TIMESTAMPTZ;
BEGIN
    IF TG_OP = 'DELETE' THEN
        INSERT INTO overview_trials (bucket, trials, converted)
        VALUES (overview_quarter(OLD.created_at), -1, CASE WHEN OLD.converted_at IS NULL THEN 0 ELSE -1 END);
    ELSIF NEW.source = 'trial' THEN
        INSERT INTO overview_trials (bucket, trials, converted) VALUES (overview_quarter(NEW.created_at), 1, 0);
    ELSE
        -- A paid grant converts the customer's latest trial before it, once.
        UPDATE subscription_history SET converted_at = NEW.created_at
        WHERE id = (SELECT id FROM subscription_history WHERE user_id = NEW.user_id AND source = 'trial' AND id < NEW.id
                    ORDER BY id DESC LIMIT 1)
          AND converted_at IS NULL
        RETURNING created_at INTO began;
        IF FOUND THEN
            INSERT INTO overview_trials (bucket, trials, converted) VALUES (overview_quarter(began), 0, 1);
        END IF;
    END IF;
    RETURN NULL;
END $$;
