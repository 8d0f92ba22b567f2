-- The catalogue (plans and their durations, sales, constructor periods and packs, the app
-- config) is kept in each pool process's memory (issue 17). Every change to it bumps this
-- one-row counter in the writer's own transaction and notifies `catalog_changed`:
-- - the account statement of every authenticated request returns the counter, so a process
--   whose copy is older reloads it before answering: no request sees a catalogue older than
--   a change acknowledged before it began;
-- - the notification refreshes the copy used by public endpoints at once.
CREATE TABLE catalog_version (
    id      BOOLEAN PRIMARY KEY DEFAULT true CHECK (id),
    version BIGINT NOT NULL
);
INSERT INTO catalog_version (id, version) VALUES (true, 1);

CREATE FUNCTION catalog_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE catalog_version SET version = version + 1;
    PERFORM pg_notify('catalog_changed', '');
    RETURN NULL;
END
$$;

-- One statement-level trigger per catalogue table, named <table>_catalog_changed.
DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['plans', 'plan_durations', 'sales', 'constructor_periods', 'constructor_packs', 'app_config']
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
                       'FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed()', t || '_catalog_changed', t);
    END LOOP;
END
$$;
