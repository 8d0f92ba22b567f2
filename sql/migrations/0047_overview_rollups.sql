-- The owner's Overview at a million customers (issue 47): three small tables that triggers
-- keep equal to what the big ones hold, so that each figure reads a few thousand rows
-- instead of a million (docs/decisions.md "The Overview's rollups"; measured on the bench's
-- million: revenue 427 ms, active subscriptions 263 ms, trial conversion 640 ms read
-- straight from the base tables).
--
-- Each row-level trigger has a WHEN clause, so a write that changes nothing counted costs
-- no function call. A counted change appends a row of its own (+amount, -1, ...): no row
-- is ever updated by two payments, so a payment never waits on another's and two can never
-- deadlock on a rollup. overview_compact() (the worker, every minute) sums the rows of a
-- bucket into one; a reader sums whatever rows there are, compacted or not. A quarter of an
-- hour is the bucket: every shop's midnight, whatever its time zone, is on one.
--
-- The migration rebuilds each table from the base tables, with their writes locked out for
-- that while (seconds at a million customers): applied again, it gives the same figures.

LOCK TABLE transactions, subscriptions, subscription_history IN SHARE MODE;

-- ---- revenue: completed payments through a provider, by the quarter-hour they completed
CREATE TABLE IF NOT EXISTS overview_revenue (
    bucket       TIMESTAMPTZ NOT NULL,
    amount_minor BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS overview_revenue_bucket_idx ON overview_revenue (bucket) INCLUDE (amount_minor);

CREATE OR REPLACE FUNCTION overview_quarter(t TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT date_bin('15 minutes', t, TIMESTAMPTZ '2000-01-01 00:00:00+00') $$;

CREATE OR REPLACE FUNCTION overview_revenue_add(t TIMESTAMPTZ, amount BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO overview_revenue (bucket, amount_minor) VALUES (overview_quarter(t), amount)
$$;

CREATE OR REPLACE FUNCTION overview_revenue_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status = 'completed' AND OLD.provider IS NOT NULL AND OLD.completed_at IS NOT NULL THEN
        PERFORM overview_revenue_add(OLD.completed_at, -OLD.amount_minor);
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status = 'completed' AND NEW.provider IS NOT NULL AND NEW.completed_at IS NOT NULL THEN
        PERFORM overview_revenue_add(NEW.completed_at, NEW.amount_minor);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS transactions_overview_insert ON transactions;
CREATE TRIGGER transactions_overview_insert AFTER INSERT ON transactions FOR EACH ROW
    WHEN (NEW.status = 'completed' AND NEW.provider IS NOT NULL) EXECUTE FUNCTION overview_revenue_track();
DROP TRIGGER IF EXISTS transactions_overview_update ON transactions;
CREATE TRIGGER transactions_overview_update AFTER UPDATE OF status, provider, completed_at, amount_minor ON transactions
    FOR EACH ROW WHEN ((OLD.status = 'completed' AND OLD.provider IS NOT NULL OR NEW.status = 'completed' AND NEW.provider IS NOT NULL)
                       AND (OLD.status, OLD.provider, OLD.completed_at, OLD.amount_minor)
                           IS DISTINCT FROM (NEW.status, NEW.provider, NEW.completed_at, NEW.amount_minor))
    EXECUTE FUNCTION overview_revenue_track();
DROP TRIGGER IF EXISTS transactions_overview_delete ON transactions;
CREATE TRIGGER transactions_overview_delete AFTER DELETE ON transactions FOR EACH ROW
    WHEN (OLD.status = 'completed' AND OLD.provider IS NOT NULL) EXECUTE FUNCTION overview_revenue_track();

TRUNCATE overview_revenue;
INSERT INTO overview_revenue (bucket, amount_minor)
    SELECT overview_quarter(completed_at), sum(amount_minor) FROM transactions
    WHERE status = 'completed' AND provider IS NOT NULL AND completed_at IS NOT NULL GROUP BY 1;

-- ---- subscriptions by the UTC day they end: paid (active or limited) and trials
CREATE TABLE IF NOT EXISTS overview_expiries (
    kind          TEXT NOT NULL CHECK (kind IN ('paid', 'trial')),
    day           DATE NOT NULL,
    subscriptions BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS overview_expiries_day_idx ON overview_expiries (kind, day) INCLUDE (subscriptions);

CREATE OR REPLACE FUNCTION overview_expiry_kind(status TEXT, is_trial BOOLEAN) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN status = 'trial' THEN 'trial' WHEN status IN ('active', 'limited') AND NOT is_trial THEN 'paid' END
$$;

CREATE OR REPLACE FUNCTION overview_expiry_add(kind TEXT, t TIMESTAMPTZ, n BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO overview_expiries (kind, day, subscriptions) VALUES (kind, (t AT TIME ZONE 'UTC')::date, n)
$$;

CREATE OR REPLACE FUNCTION overview_expiry_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    k TEXT;
BEGIN
    IF TG_OP <> 'INSERT' THEN
        k := overview_expiry_kind(OLD.status, OLD.is_trial);
        IF k IS NOT NULL THEN PERFORM overview_expiry_add(k, OLD.expire_at, -1); END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        k := overview_expiry_kind(NEW.status, NEW.is_trial);
        IF k IS NOT NULL THEN PERFORM overview_expiry_add(k, NEW.expire_at, 1); END IF;
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS subscriptions_overview_insert ON subscriptions;
CREATE TRIGGER subscriptions_overview_insert AFTER INSERT ON subscriptions FOR EACH ROW
    WHEN (overview_expiry_kind(NEW.status, NEW.is_trial) IS NOT NULL) EXECUTE FUNCTION overview_expiry_track();
DROP TRIGGER IF EXISTS subscriptions_overview_update ON subscriptions;
CREATE TRIGGER subscriptions_overview_update AFTER UPDATE OF status, is_trial, expire_at ON subscriptions FOR EACH ROW
    WHEN ((overview_expiry_kind(OLD.status, OLD.is_trial) IS NOT NULL OR overview_expiry_kind(NEW.status, NEW.is_trial) IS NOT NULL)
          AND (overview_expiry_kind(OLD.status, OLD.is_trial), (OLD.expire_at AT TIME ZONE 'UTC')::date)
              IS DISTINCT FROM (overview_expiry_kind(NEW.status, NEW.is_trial), (NEW.expire_at AT TIME ZONE 'UTC')::date))
    EXECUTE FUNCTION overview_expiry_track();
DROP TRIGGER IF EXISTS subscriptions_overview_delete ON subscriptions;
CREATE TRIGGER subscriptions_overview_delete AFTER DELETE ON subscriptions FOR EACH ROW
    WHEN (overview_expiry_kind(OLD.status, OLD.is_trial) IS NOT NULL) EXECUTE FUNCTION overview_expiry_track();

TRUNCATE overview_expiries;
INSERT INTO overview_expiries (kind, day, subscriptions)
    SELECT overview_expiry_kind(status, is_trial), (expire_at AT TIME ZONE 'UTC')::date, count(*) FROM subscriptions
    WHERE overview_expiry_kind(status, is_trial) IS NOT NULL GROUP BY 1, 2;

-- ---- trials by the quarter-hour they began, and those converted: the customer paid after
ALTER TABLE subscription_history ADD COLUMN IF NOT EXISTS converted_at TIMESTAMPTZ;  -- on trial rows

CREATE TABLE IF NOT EXISTS overview_trials (
    bucket    TIMESTAMPTZ NOT NULL,
    trials    BIGINT NOT NULL,
    converted BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS overview_trials_bucket_idx ON overview_trials (bucket) INCLUDE (trials, converted);

CREATE OR REPLACE FUNCTION overview_trials_add(t TIMESTAMPTZ, trials BIGINT, converted BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO overview_trials (bucket, trials, converted) VALUES (overview_quarter(t), trials, converted)
$$;

CREATE OR REPLACE FUNCTION overview_trials_track() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    began TIMESTAMPTZ;
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM overview_trials_add(OLD.created_at, -1, CASE WHEN OLD.converted_at IS NULL THEN 0 ELSE -1 END);
    ELSIF NEW.source = 'trial' THEN
        PERFORM overview_trials_add(NEW.created_at, 1, 0);
    ELSE
        -- A paid grant converts the customer's latest trial before it, once.
        UPDATE subscription_history SET converted_at = NEW.created_at
        WHERE id = (SELECT id FROM subscription_history WHERE user_id = NEW.user_id AND source = 'trial' AND id < NEW.id
                    ORDER BY id DESC LIMIT 1)
          AND converted_at IS NULL
        RETURNING created_at INTO began;
        IF FOUND THEN PERFORM overview_trials_add(began, 0, 1); END IF;
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS subscription_history_overview_insert ON subscription_history;
CREATE TRIGGER subscription_history_overview_insert AFTER INSERT ON subscription_history FOR EACH ROW
    WHEN (NEW.source IN ('trial', 'purchase', 'fulfil', 'autopay')) EXECUTE FUNCTION overview_trials_track();
DROP TRIGGER IF EXISTS subscription_history_overview_delete ON subscription_history;
CREATE TRIGGER subscription_history_overview_delete AFTER DELETE ON subscription_history FOR EACH ROW
    WHEN (OLD.source = 'trial') EXECUTE FUNCTION overview_trials_track();

UPDATE subscription_history h SET converted_at = (
    SELECT min(p.created_at) FROM subscription_history p
    WHERE p.user_id = h.user_id AND p.id > h.id AND p.source IN ('purchase', 'fulfil', 'autopay'))
WHERE h.source = 'trial';
TRUNCATE overview_trials;
INSERT INTO overview_trials (bucket, trials, converted)
    SELECT overview_quarter(created_at), count(*), count(converted_at) FROM subscription_history
    WHERE source = 'trial' GROUP BY 1;

-- ---- compaction: the rows of each bucket (day) with more than one summed into one; run by
-- the worker every minute (and by the bench seed after its bulk load). Concurrent writers
-- only append, so they neither wait for it nor lose a row to it: a row appended after the
-- DELETE's snapshot is simply left for the next run.
CREATE OR REPLACE FUNCTION overview_compact() RETURNS void LANGUAGE sql AS $$
    WITH many AS (SELECT bucket FROM overview_revenue GROUP BY bucket HAVING count(*) > 1),
         gone AS (DELETE FROM overview_revenue r USING many WHERE r.bucket = many.bucket RETURNING r.bucket, r.amount_minor)
    INSERT INTO overview_revenue (bucket, amount_minor) SELECT bucket, sum(amount_minor) FROM gone GROUP BY bucket;
    WITH many AS (SELECT kind, day FROM overview_expiries GROUP BY kind, day HAVING count(*) > 1),
         gone AS (DELETE FROM overview_expiries e USING many WHERE e.kind = many.kind AND e.day = many.day
                  RETURNING e.kind, e.day, e.subscriptions)
    INSERT INTO overview_expiries (kind, day, subscriptions) SELECT kind, day, sum(subscriptions) FROM gone GROUP BY kind, day;
    WITH many AS (SELECT bucket FROM overview_trials GROUP BY bucket HAVING count(*) > 1),
         gone AS (DELETE FROM overview_trials t USING many WHERE t.bucket = many.bucket RETURNING t.bucket, t.trials, t.converted)
    INSERT INTO overview_trials (bucket, trials, converted) SELECT bucket, sum(trials), sum(converted) FROM gone GROUP BY bucket;
$$;
