-- ledger_move as PL/pgSQL (issue 17). As a LANGUAGE sql function with a data-modifying WITH
-- it could not be inlined, so PostgreSQL parsed and planned its body on every call: about
-- half of a balance purchase's database time. PL/pgSQL keeps the plan for the session.
-- Same signature, same result: the new balance, or NULL when nothing moved.
CREATE OR REPLACE FUNCTION ledger_move(p_user BIGINT, p_delta BIGINT, p_reason TEXT, p_transaction BIGINT DEFAULT NULL,
                                       p_note TEXT DEFAULT '')
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    after BIGINT;
BEGIN
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
    RETURN after;
END
$$;
