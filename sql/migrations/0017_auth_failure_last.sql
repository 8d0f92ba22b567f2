-- When a brute-force counter last counted (issue 13, docs/decisions.md "Sign-in limits per
-- source, a growing delay per e-mail"): the per-e-mail limit is a delay after the latest
-- failure, not a lock for the rest of the window.
ALTER TABLE auth_failures ADD COLUMN last_at TIMESTAMPTZ NOT NULL DEFAULT now();
