-- The owner's Overview shows the money check's verdict (issue 48): `cabinetctl check-ledger`
-- (cabinet-backup.service runs it every 15 minutes) keeps its last run here.
CREATE TABLE IF NOT EXISTS ledger_check_runs (
    id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    checked_at timestamptz NOT NULL,
    problems integer NOT NULL CHECK (problems >= 0),
    first_problem text NOT NULL DEFAULT ''
);
