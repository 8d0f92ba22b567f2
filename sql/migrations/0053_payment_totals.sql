-- The owner's payments list's totals at a million customers (issue 48): the count and sum
-- per currency of everything a filter finds (status, method, type, dates) read ~2 million
-- rows for a month of the seeded million (1.1 s) and all twenty million for no dates.
-- payment_totals holds, per hour the payment was created in and per status, method, type and
-- currency, how many there are and their sum; triggers keep it equal to transactions as the
-- Overview's rollups are kept (sql 0047): each counted change appends a row of its own
-- (+1/+amount, -1/-amount), so two payments never wait on one rollup row, and
-- overview_compact() (the worker, every minute) sums a key's rows into one.
--
-- A reader takes the hours wholly inside the filter's dates from here and the part-hours at
-- its ends (a time zone half an hour off UTC) from transactions, so the figure is exact for
-- any dates (services/payment_admin.cpp write_payment_totals). An hour, not a day: a day in
-- UTC would leave up to a day at each end to read from transactions in the shop's own zone.
--
-- Built from transactions with their writes locked out for that while (about 30 s at
-- twenty million); applied again it gives the same figures.

LOCK TABLE transactions IN SHARE MODE;

CREATE TABLE IF NOT EXISTS payment_totals (
    hour         TIMESTAMPTZ NOT NULL,
    status       TEXT NOT NULL,
    method       TEXT NOT NULL,
    type         TEXT NOT NULL,
    currency     TEXT NOT NULL,
    n            BIGINT NOT NULL,
    amount_minor BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_totals_hour_idx ON payment_totals (hour)
    INCLUDE (status, method, type, currency, n, amount_minor);

-- The UTC hour `t` is in, whatever the session's TimeZone (date_trunc would use it).
CREATE OR REPLACE FUNCTION payment_hour(t TIMESTAMPTZ) RETURNS TIMESTAMPTZ
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT date_bin('1 hour', t, TIMESTAMPTZ '2000-01-01 00:00:00+00') $$;

CREATE OR REPLACE FUNCTION payment_totals_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO payment_totals VALUES (payment_hour(OLD.created_at), OLD.status, OLD.method, OLD.type,
                                           OLD.currency, -1, -OLD.amount_minor);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO payment_totals VALUES (payment_hour(NEW.created_at), NEW.status, NEW.method, NEW.type,
                                           NEW.currency, 1, NEW.amount_minor);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS transactions_totals_insert ON transactions;
CREATE TRIGGER transactions_totals_insert AFTER INSERT ON transactions FOR EACH ROW
    EXECUTE FUNCTION payment_totals_track();
DROP TRIGGER IF EXISTS transactions_totals_update ON transactions;
CREATE TRIGGER transactions_totals_update AFTER UPDATE OF created_at, status, method, type, currency, amount_minor
    ON transactions FOR EACH ROW
    WHEN ((OLD.created_at, OLD.status, OLD.method, OLD.type, OLD.currency, OLD.amount_minor)
          IS DISTINCT FROM (NEW.created_at, NEW.status, NEW.method, NEW.type, NEW.currency, NEW.amount_minor))
    EXECUTE FUNCTION payment_totals_track();
DROP TRIGGER IF EXISTS transactions_totals_delete ON transactions;
CREATE TRIGGER transactions_totals_delete AFTER DELETE ON transactions FOR EACH ROW
    EXECUTE FUNCTION payment_totals_track();

TRUNCATE payment_totals;
INSERT INTO payment_totals
    SELECT payment_hour(created_at), status, method, type, currency, count(*), sum(amount_minor)
    FROM transactions GROUP BY 1, 2, 3, 4, 5;
ANALYZE payment_totals;

-- sql 0047's compaction, and this table's.
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
    -- A key whose rows sum to nothing (a payment created and its status changed back, or
    -- deleted) goes altogether.
    WITH many AS (SELECT hour, status, method, type, currency FROM payment_totals
                  GROUP BY 1, 2, 3, 4, 5 HAVING count(*) > 1),
         gone AS (DELETE FROM payment_totals p USING many
                  WHERE (p.hour, p.status, p.method, p.type, p.currency) = (many.hour, many.status, many.method, many.type, many.currency)
                  RETURNING p.*)
    INSERT INTO payment_totals SELECT hour, status, method, type, currency, sum(n), sum(amount_minor) FROM gone
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) <> 0 OR sum(amount_minor) <> 0;
$$;
