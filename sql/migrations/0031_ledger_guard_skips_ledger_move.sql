-- The balance guard (sql 0011) without its commit-time cost for ledger_move's own writes
-- (issue 17; docs/decisions.md "PostgreSQL's share of a purchase"). The deferred guard ran two
-- SELECTs at commit for every balance change, ledger_move's included, although ledger_move
-- writes the balance and its ledger row in one statement, under the row lock, with
-- balance_after taken from the very row it updated: it cannot leave them apart.
--
-- ledger_move now marks, for the length of that one statement, the user whose balance it is
-- moving (a transaction-local setting, cleared right after; an error rolls it back with the
-- statement). The guard's WHEN clause, evaluated as the row is updated, skips exactly that
-- update; any other change of a balance - a direct UPDATE in code or in psql, also one in the
-- same transaction after a ledger_move - queues the guard as before and fails its commit.
-- Only a writer that sets cabinet.ledger_move itself gets past it, as one that disables the
-- trigger would.
CREATE OR REPLACE FUNCTION ledger_move(p_user BIGINT, p_delta BIGINT, p_reason TEXT, p_transaction BIGINT DEFAULT NULL,
                                       p_note TEXT DEFAULT '')
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    after BIGINT;
BEGIN
    PERFORM set_config('cabinet.ledger_move', p_user::text, true);
    WITH moved AS (
        UPDATE users SET balance_minor = balance_minor + p_delta, updated_at = now()
        WHERE id = p_user AND balance_minor + p_delta >= 0 AND p_delta <> 0
        RETURNING id, balance_minor
    ), entry AS (
        INSERT INTO balance_ledger (user_id, delta_minor, balance_after, reason, transaction_id, note)
        SELECT id, p_delta, balance_minor, p_reason, p_transaction, p_note FROM moved
        RETURNING balance_after
    )
    SELECT balance_after INTO after FROM entry;
    PERFORM set_config('cabinet.ledger_move', '', true);
    RETURN after;
END
$$;

DROP TRIGGER IF EXISTS users_balance_ledger_update ON users;
CREATE CONSTRAINT TRIGGER users_balance_ledger_update AFTER UPDATE OF balance_minor ON users
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.balance_minor IS DISTINCT FROM NEW.balance_minor
          AND current_setting('cabinet.ledger_move', true) IS DISTINCT FROM NEW.id::text)
    EXECUTE FUNCTION balance_ledger_guard();
