-- Owner-level settings (issue 18 "Settings without restarts"; docs/operations.md
-- "Settings"): a row overrides the env file's value of an owner-level setting (the kSpecs
-- table marks them) in every process. Written only through `cabinetctl settings set` and
-- PUT /api/admin/settings/{name}, which check the value with the start-up parser and audit
-- the change in the same transaction. Every change notifies `settings_changed`: each
-- process's change listener reads the table again and swaps in a new settings snapshot.
CREATE TABLE IF NOT EXISTS owner_settings (
    name       TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    changed_by TEXT NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE OR REPLACE FUNCTION owner_settings_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('settings_changed', '');
    RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER owner_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON owner_settings
    FOR EACH STATEMENT EXECUTE FUNCTION owner_settings_changed();
