-- Maintenance mode and the admin audit log (issue 6; SPEC "Maintenance mode",
-- "Maintenance screen actions"; fcgi-app/core/services/maintenance.hpp).

-- One row: the maintenance switch and the panel watchdog's streak. Until the row exists
-- the state is the MAINTENANCE_MODE setting; the first write inserts it (seeded from it).
CREATE TABLE maintenance_state (
    id               SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    enabled          BOOLEAN NOT NULL DEFAULT false,
    -- who switched it on: an admin or the seed ('manual'), or the watchdog ('auto').
    -- The watchdog switches off only what it switched on.
    source           TEXT CHECK (source IN ('manual', 'auto')),
    message          TEXT,                      -- NULL: the MAINTENANCE_MESSAGE setting
    changed_by       TEXT NOT NULL DEFAULT 'MAINTENANCE_MODE',
    changed_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    panel_failures   INTEGER NOT NULL DEFAULT 0 CHECK (panel_failures >= 0),  -- consecutive failed checks
    panel_checked_at TIMESTAMPTZ,
    panel_last_error TEXT,
    CHECK (enabled = (source IS NOT NULL))
);

-- What admins did (and what the watchdog did for them): append-only.
CREATE TABLE audit_log (
    id         BIGSERIAL PRIMARY KEY,
    at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    actor      TEXT NOT NULL,          -- 'telegram:<id>', 'user:<id>', 'watchdog', 'cabinetctl'
    action     TEXT NOT NULL,          -- 'maintenance.on', 'backup', 'reboot-server', ...
    entity     TEXT,                   -- what it acted on: 'maintenance', 'job:<id>', 'host'
    payload    JSONB NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
