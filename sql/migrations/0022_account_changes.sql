-- Pool processes keep recently used accounts in memory (issue 17; docs/decisions.md
-- "Accounts in memory"). Whatever changes what an account read shows notifies
-- `accounts_changed` with the id of the user concerned, or '*' (every account) for promo
-- groups and TRUNCATE. The pool's own writes are forgotten host-wide before they are
-- acknowledged anyway; this carries the others' (the worker, the bot, the timers, other
-- hosts, psql) within milliseconds.
--
-- Row-level triggers whose bodies are one pg_notify each: PL/pgSQL evaluates those as simple
-- expressions, without starting an executor, which is what a purchase can afford (the
-- statement-level version with transition tables cost a sixth of its database time). A
-- statement changing N users sends N notifications; PostgreSQL folds repeats of one payload
-- within a transaction.

-- users: the row itself, and the referrers it joins or leaves (their /referral counts it).
CREATE FUNCTION users_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('accounts_changed', NEW.id::text);
        IF NEW.referred_by IS NOT NULL THEN
            PERFORM pg_notify('accounts_changed', NEW.referred_by::text);
        END IF;
    ELSIF TG_OP = 'UPDATE' THEN
        PERFORM pg_notify('accounts_changed', NEW.id::text);
        IF NEW.referred_by IS DISTINCT FROM OLD.referred_by THEN
            PERFORM pg_notify('accounts_changed', coalesce(NEW.referred_by, OLD.referred_by)::text);
            IF NEW.referred_by IS NOT NULL AND OLD.referred_by IS NOT NULL THEN
                PERFORM pg_notify('accounts_changed', OLD.referred_by::text);
            END IF;
        END IF;
    ELSE
        PERFORM pg_notify('accounts_changed', OLD.id::text);
        IF OLD.referred_by IS NOT NULL THEN
            PERFORM pg_notify('accounts_changed', OLD.referred_by::text);
        END IF;
    END IF;
    RETURN NULL;
END
$$;

-- Tables whose rows belong to one user through a column: subscriptions and traffic_snapshots
-- (user_id), referral_earnings (referrer_id, whose /referral sums them). One function per
-- column, written out from one template so that each names its column plainly.
DO $do$
DECLARE
    fn TEXT;
    col TEXT;
BEGIN
    FOR fn, col IN VALUES ('user_row_account_changed', 'user_id'), ('referrer_row_account_changed', 'referrer_id')
    LOOP
        EXECUTE format($f$
            CREATE FUNCTION %1$I() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    PERFORM pg_notify('accounts_changed', OLD.%2$I::text);
                ELSE
                    PERFORM pg_notify('accounts_changed', NEW.%2$I::text);
                    IF TG_OP = 'UPDATE' AND OLD.%2$I <> NEW.%2$I THEN
                        PERFORM pg_notify('accounts_changed', OLD.%2$I::text);
                    END IF;
                END IF;
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

-- <table>_account_changed for rows, <table>_accounts_truncated for TRUNCATE.
DO $$
DECLARE
    t TEXT;
    fn TEXT;
BEGIN
    FOR t, fn IN VALUES ('users', 'users_account_changed'),
                        ('subscriptions', 'user_row_account_changed'),
                        ('traffic_snapshots', 'user_row_account_changed'),
                        ('referral_earnings', 'referrer_row_account_changed')
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I '
                       'FOR EACH ROW EXECUTE FUNCTION %I()', t || '_account_changed', t, fn);
        EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION every_account_changed()', t || '_accounts_truncated', t);
    END LOOP;
    EXECUTE 'CREATE TRIGGER promo_groups_accounts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON promo_groups '
            'FOR EACH STATEMENT EXECUTE FUNCTION every_account_changed()';
END
$$;
