-- An ended web session's access tokens stop working at once, not when they expire (up to
-- 15 minutes later): docs/decisions.md "An ended session's access tokens stop at once".
-- The pool keeps each account's recently ended sessions beside the account in memory
-- (cache/account_cache.hpp), so a revocation has to make every process read them again:
-- it notifies accounts_changed with the user's id, as every other change of what an account
-- read shows does (sql 0022). Refreshes also update these rows (rotated_at) and stay silent.
CREATE OR REPLACE TRIGGER refresh_tokens_revoked_account_changed
    AFTER UPDATE OF revoked_at ON refresh_tokens
    FOR EACH ROW WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
    EXECUTE FUNCTION user_row_account_changed();

-- The sessions of a user that ended lately (the statement `ended_sessions`), without walking
-- the hundreds of rotated rows a long-open tab leaves.
CREATE INDEX IF NOT EXISTS refresh_tokens_revoked_idx ON refresh_tokens (user_id, revoked_at)
    WHERE revoked_at IS NOT NULL;
