-- Pool processes keep recently used accounts in memory (issue 17; docs/decisions.md
-- "Accounts in memory"). Whatever changes what an account read shows notifies
-- `accounts_changed` with the ids of the users concerned, comma-separated, or '*' (every
-- account) for more than 100 of them in one statement and for promo groups. The pool's own
-- writes are forgotten host-wide before they are acknowledged anyway; this carries the
-- others' (the worker, the bot, the timers, other hosts, psql) within milliseconds.
-- Statement-level triggers: a bulk statement sends one notification, not one per row.

CREATE FUNCTION notify_accounts_changed(ids BIGINT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF ids IS NULL OR cardinality(ids) = 0 THEN
        RETURN;
    END IF;
    PERFORM pg_notify('accounts_changed', CASE WHEN cardinality(ids) > 100 THEN '*' ELSE array_to_string(ids, ',') END);
END
$$;

-- users: the row itself and its referrer's (whose /referral counts it).
CREATE FUNCTION users_accounts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ids BIGINT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(i) INTO ids FROM (
            SELECT DISTINCT i FROM new_rows r, LATERAL (VALUES (r.id), (r.referred_by)) v(i) WHERE i IS NOT NULL LIMIT 101) d;
    ELSIF TG_OP = 'UPDATE' THEN
        SELECT array_agg(i) INTO ids FROM (
            SELECT DISTINCT i FROM (SELECT id, referred_by FROM new_rows UNION ALL SELECT id, referred_by FROM old_rows) r,
                   LATERAL (VALUES (r.id), (r.referred_by)) v(i) WHERE i IS NOT NULL LIMIT 101) d;
    ELSE
        SELECT array_agg(i) INTO ids FROM (
            SELECT DISTINCT i FROM old_rows r, LATERAL (VALUES (r.id), (r.referred_by)) v(i) WHERE i IS NOT NULL LIMIT 101) d;
    END IF;
    PERFORM notify_accounts_changed(ids);
    RETURN NULL;
END
$$;

-- Tables whose rows belong to one user through a column: subscriptions and traffic_snapshots
-- (user_id), referral_earnings (referrer_id, whose /referral sums them). One function per
-- column, written out from one template so that each has plain (plan-cached) statements.
DO $do$
DECLARE
    fn TEXT;
    col TEXT;
BEGIN
    FOR fn, col IN VALUES ('user_rows_accounts_changed', 'user_id'), ('referrer_rows_accounts_changed', 'referrer_id')
    LOOP
        EXECUTE format($f$
            CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
            DECLARE
                ids BIGINT[];
            BEGIN
                IF TG_OP = 'INSERT' THEN
                    SELECT array_agg(i) INTO ids FROM (SELECT DISTINCT %2$I AS i FROM new_rows WHERE %2$I IS NOT NULL LIMIT 101) d;
                ELSIF TG_OP = 'UPDATE' THEN
                    SELECT array_agg(i) INTO ids FROM (SELECT DISTINCT i FROM (SELECT %2$I AS i FROM new_rows UNION ALL
                        SELECT %2$I FROM old_rows) r WHERE i IS NOT NULL LIMIT 101) d;
                ELSE
                    SELECT array_agg(i) INTO ids FROM (SELECT DISTINCT %2$I AS i FROM old_rows WHERE %2$I IS NOT NULL LIMIT 101) d;
                END IF;
                PERFORM notify_accounts_changed(ids);
                RETURN NULL;
            END
            $body$$f$, fn, col);
    END LOOP;
END
$do$;

CREATE FUNCTION every_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('accounts_changed', '*');
    RETURN NULL;
END
$$;

-- A trigger may name transition tables for one event only: three per table, plus TRUNCATE.
DO $$
DECLARE
    t TEXT;
    fn TEXT;
BEGIN
    FOR t, fn IN VALUES ('users', 'users_accounts_changed()'),
                        ('subscriptions', 'user_rows_accounts_changed()'),
                        ('traffic_snapshots', 'user_rows_accounts_changed()'),
                        ('referral_earnings', 'referrer_rows_accounts_changed()')
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_accounts_inserted', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_accounts_updated', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows '
                       'FOR EACH STATEMENT EXECUTE FUNCTION %s', t || '_accounts_deleted', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION every_account_changed()', t || '_accounts_truncated', t);
    END LOOP;
    EXECUTE 'CREATE TRIGGER promo_groups_accounts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON promo_groups '
            'FOR EACH STATEMENT EXECUTE FUNCTION every_account_changed()';
END
$$;
