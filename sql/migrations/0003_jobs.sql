-- The durable job queue (fcgi-app/core/jobs/, docs/decisions.md "Job queue").
-- pending -> running (claimed: attempt counted, lease set) -> done | pending (retry) | dead.
-- A running job whose lease (locked_until) has passed and whose row is not locked by a
-- handler's transaction was lost with its worker and may be claimed again.

CREATE TABLE jobs (
    id           BIGSERIAL PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind <> ''),
    payload      JSONB NOT NULL DEFAULT '{}'::jsonb,
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','running','done','dead')),
    attempts     INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),    -- runs started so far
    max_attempts INTEGER NOT NULL DEFAULT 8 CHECK (max_attempts > 0),
    run_at       TIMESTAMPTZ NOT NULL DEFAULT now(),                  -- not before (backoff, delay)
    locked_until TIMESTAMPTZ,                                         -- lease of the running attempt
    locked_by    TEXT,                                                -- worker thread holding the lease
    last_error   TEXT,
    dedupe_key   TEXT UNIQUE,                                         -- NULL: no deduplication
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at  TIMESTAMPTZ                                          -- done or dead
);

-- The claim's two lookups: ready pending jobs by due time, expired leases (few rows).
CREATE INDEX jobs_ready_idx ON jobs (run_at) WHERE status = 'pending';
CREATE INDEX jobs_lease_idx ON jobs (locked_until) WHERE status = 'running';
-- `cabinetctl jobs list --status S`, newest first.
CREATE INDEX jobs_status_idx ON jobs (status, id);
