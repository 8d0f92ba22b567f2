-- Attempts per job kind, and a dead job's key set free (docs/decisions.md "Jobs outlive an
-- outage"). enqueue_job gains the number of attempts; the four-argument form stays, as
-- the functions of 0024 call it, and keeps the table's default of 8. A dead job no longer
-- holds its dedupe key: its producer (the autopay scan, the report schedule) may queue the
-- same work again, while the dead row stays for the operator (`cabinetctl jobs list`).
CREATE OR REPLACE FUNCTION enqueue_job(p_kind TEXT, p_payload JSONB, p_dedupe TEXT, p_delay_s BIGINT,
                                       p_max_attempts INTEGER)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    job BIGINT;
BEGIN
    INSERT INTO jobs (kind, payload, dedupe_key, run_at, max_attempts)
    VALUES (p_kind, p_payload, NULLIF(p_dedupe, ''), now() + make_interval(secs => greatest(p_delay_s, 0)),
            p_max_attempts)
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id INTO job;
    IF job IS NOT NULL AND p_delay_s <= 0 THEN
        PERFORM pg_notify('cabinet_jobs', '');
    END IF;
    RETURN job;
END
$$;

CREATE OR REPLACE FUNCTION enqueue_job(p_kind TEXT, p_payload JSONB, p_dedupe TEXT, p_delay_s BIGINT)
RETURNS BIGINT LANGUAGE sql AS $$ SELECT enqueue_job(p_kind, p_payload, p_dedupe, p_delay_s, 8) $$;

-- The referral bonus grants days: a money job, with its 20 attempts (jobs::kMoneyJobAttempts).
-- Otherwise as in 0024.
CREATE OR REPLACE FUNCTION reward_referrer(p_referrer BIGINT, p_referral BIGINT, p_commission BIGINT, p_transaction BIGINT,
                                p_bonus_kind TEXT, p_bonus_payload JSONB, p_bonus_dedupe TEXT)
RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    entry BIGINT;
BEGIN
    IF p_commission > 0 THEN
        PERFORM 1 FROM users WHERE id = p_referrer FOR NO KEY UPDATE;
        WITH earning AS (
            INSERT INTO referral_earnings (referrer_id, referral_id, transaction_id, amount_minor)
            VALUES (p_referrer, p_referral, p_transaction, p_commission)
        )
        INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, description, completed_at)
        SELECT p_referrer, 'referral_reward', 'completed', p_commission, currency, 'referral', 'referral commission', now()
        FROM users WHERE id = p_referrer
        RETURNING id INTO entry;
        IF entry IS NOT NULL THEN
            PERFORM ledger_move(p_referrer, p_commission, 'referral_commission', entry);
        END IF;
    END IF;
    IF p_bonus_kind IS NOT NULL THEN
        PERFORM enqueue_job(p_bonus_kind, p_bonus_payload, p_bonus_dedupe, 0, 20);
    END IF;
END
$$;

-- Keys that dead jobs hold today are set free too.
UPDATE jobs SET dedupe_key = NULL WHERE status = 'dead' AND dedupe_key IS NOT NULL;
