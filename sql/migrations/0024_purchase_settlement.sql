-- A balance purchase writes everything after its panel call in one round trip (issue 17).
-- Each step was its own statement: the purchase row and its balance move, the subscription
-- and its history row, the promo offer, the referrer's lock, earning and balance move, the
-- bonus job and its wake-up. At a purchase in twenty requests those round trips were a
-- large share of the machine. The steps are now functions, each the one place its SQL
-- lives: the C++ statements call them (db/subscription_statements.cpp,
-- db/purchase_statements.cpp, jobs/job_queue.cpp), and settle_purchase calls them in the
-- order the purchase always used. What to write (prices, expiry, commission, the job's kind
-- and payload) is still decided in C++; these functions only write it.

-- The local half of a panel-first subscription write, over the revision the writer read
-- under its lock (NULL: it read none), with its history row. Returns the new revision, or
-- NULL when the row moved since that read (the caller refuses the write: nothing is lost).
CREATE OR REPLACE FUNCTION write_subscription(
    p_user BIGINT, p_status TEXT, p_is_trial BOOLEAN, p_plan_id BIGINT, p_plan_snapshot JSONB, p_start_at BIGINT,
    p_expire_at BIGINT, p_device_limit INTEGER, p_traffic_limit BIGINT, p_traffic_used BIGINT, p_panel_uuid UUID,
    p_short_uuid TEXT, p_subscription_url TEXT, p_read_revision BIGINT, p_source TEXT, p_transaction BIGINT,
    p_days INTEGER, p_expire_before BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    written BIGINT;
BEGIN
    INSERT INTO subscriptions AS s (user_id, status, is_trial, plan_id, plan_snapshot, start_at, expire_at, device_limit,
                                    traffic_limit_bytes, traffic_used_bytes, panel_uuid, short_uuid, subscription_url,
                                    updated_at)
    VALUES (p_user, p_status, p_is_trial, p_plan_id, p_plan_snapshot, to_timestamp(p_start_at), to_timestamp(p_expire_at),
            p_device_limit, p_traffic_limit, p_traffic_used, p_panel_uuid, p_short_uuid, p_subscription_url, now())
    ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status, is_trial = EXCLUDED.is_trial,
        plan_id = EXCLUDED.plan_id, plan_snapshot = EXCLUDED.plan_snapshot, start_at = EXCLUDED.start_at,
        expire_at = EXCLUDED.expire_at, device_limit = EXCLUDED.device_limit,
        traffic_limit_bytes = EXCLUDED.traffic_limit_bytes, traffic_used_bytes = EXCLUDED.traffic_used_bytes,
        panel_uuid = EXCLUDED.panel_uuid, short_uuid = EXCLUDED.short_uuid,
        subscription_url = EXCLUDED.subscription_url, updated_at = now()
    WHERE s.revision = p_read_revision
    RETURNING s.revision INTO written;
    IF written IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO subscription_history (user_id, source, transaction_id, days, expire_before, expire_after)
    VALUES (p_user, p_source, p_transaction, p_days, to_timestamp(p_expire_before), to_timestamp(p_expire_at));
    RETURN written;
END
$$;

-- A promo-code offer is for one purchase: the one whose price used it.
CREATE OR REPLACE FUNCTION consume_promo_offer(p_user BIGINT) RETURNS VOID LANGUAGE sql AS $$
    UPDATE users SET promo_discount_pct = 0, promo_discount_until = NULL, promo_reserved_by = NULL, updated_at = now()
    WHERE id = p_user AND promo_discount_pct <> 0;
$$;

-- A job, unless one with the same dedupe key exists (NULL or '' dedupes nothing). Returns
-- its id, or NULL when the key was taken; a job due now wakes the workers at commit. The
-- channel is jobs/job_queue.hpp's kNotifyChannel.
CREATE OR REPLACE FUNCTION enqueue_job(p_kind TEXT, p_payload JSONB, p_dedupe TEXT, p_delay_s BIGINT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    job BIGINT;
BEGIN
    INSERT INTO jobs (kind, payload, dedupe_key, run_at)
    VALUES (p_kind, p_payload, NULLIF(p_dedupe, ''), now() + make_interval(secs => greatest(p_delay_s, 0)))
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING id INTO job;
    IF job IS NOT NULL AND p_delay_s <= 0 THEN
        PERFORM pg_notify('cabinet_jobs', '');
    END IF;
    RETURN job;
END
$$;

-- What a referrer gets for one paid purchase ($4) of their referral: the commission (0:
-- none) with its earning, history entry and balance move, and the bonus job (kind NULL:
-- none). The referrer's row is locked first, at the strength the credit needs: the
-- commission's inserts check their foreign keys with a KEY SHARE lock on it, and upgrading
-- that while the referrer's own purchase waits in line deadlocks (found by the property
-- test). The ledger's UNIQUE transaction_id makes a repeat a unique violation.
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
        PERFORM enqueue_job(p_bonus_kind, p_bonus_payload, p_bonus_dedupe, 0);
    END IF;
END
$$;

-- A purchase settled on the spot (services/balance_purchase.hpp), after its panel call: the
-- completed purchase row and its balance move, the subscription the panel now has, the
-- promo offer its price used, the referrer's reward (referrer NULL: none). Returns the
-- purchase row, the new balance (NULL: the balance no longer covered the price, nothing
-- else written) and the new subscription revision (NULL: the row moved since the locked
-- read); the caller refuses either NULL, which rolls everything back.
CREATE OR REPLACE FUNCTION settle_purchase(
    p_user BIGINT, p_price BIGINT, p_currency TEXT, p_method TEXT, p_order JSONB, p_pricing JSONB, p_description TEXT,
    p_idempotency_key TEXT, p_reason TEXT,
    s_status TEXT, s_is_trial BOOLEAN, s_plan_id BIGINT, s_snapshot JSONB, s_start_at BIGINT, s_expire_at BIGINT,
    s_device_limit INTEGER, s_traffic_limit BIGINT, s_traffic_used BIGINT, s_panel_uuid UUID, s_short_uuid TEXT,
    s_subscription_url TEXT, s_read_revision BIGINT, s_source TEXT, s_days INTEGER, s_expire_before BIGINT,
    p_consume_promo BOOLEAN,
    r_referrer BIGINT, r_commission BIGINT, r_bonus_kind TEXT, r_bonus_payload JSONB, r_bonus_dedupe TEXT,
    OUT o_transaction BIGINT, OUT o_balance_after BIGINT, OUT o_revision BIGINT)
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO transactions (user_id, type, status, amount_minor, currency, method, plan_snapshot, pricing, description,
                              idempotency_key, completed_at)
    VALUES (p_user, 'subscription_payment', 'completed', p_price, p_currency, p_method, p_order, p_pricing, p_description,
            NULLIF(p_idempotency_key, ''), now())
    RETURNING id INTO o_transaction;
    IF p_price > 0 THEN
        o_balance_after := ledger_move(p_user, -p_price, p_reason, o_transaction);
        IF o_balance_after IS NULL THEN
            RETURN;
        END IF;
    END IF;
    o_revision := write_subscription(p_user, s_status, s_is_trial, s_plan_id, s_snapshot, s_start_at, s_expire_at,
                                     s_device_limit, s_traffic_limit, s_traffic_used, s_panel_uuid, s_short_uuid,
                                     s_subscription_url, s_read_revision, s_source, o_transaction, s_days, s_expire_before);
    IF o_revision IS NULL THEN
        RETURN;
    END IF;
    IF p_consume_promo THEN
        PERFORM consume_promo_offer(p_user);
    END IF;
    IF r_referrer IS NOT NULL THEN
        PERFORM reward_referrer(r_referrer, p_user, r_commission, o_transaction, r_bonus_kind, r_bonus_payload,
                                r_bonus_dedupe);
    END IF;
END
$$;
