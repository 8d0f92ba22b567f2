-- Panel writes that never committed (docs/decisions.md "Grants in doubt").
--
-- A grant writes the panel first and PostgreSQL second. When PostgreSQL never commits
-- (the panel's answer was lost, the process died before COMMIT, COMMIT's answer was lost,
-- putting the panel back failed), the panel keeps days nobody paid for, and the panel sync
-- copied them in as granted. Each grant now sends a random mark in the panel user's
-- description (panel/panel_mark.hpp) and stores the same mark here, in the statement that
-- writes the subscription: both commit or neither does. A panel user whose description
-- names another mark than its subscription's holds a write that never committed; the sync
-- puts it back instead of copying it (tools/cabinetctl/panel_doubt.cpp).
--
-- Not in the revision trigger's list: the mark only changes with a grant's write, which
-- moves the revision by itself.
ALTER TABLE subscriptions ADD COLUMN IF NOT EXISTS panel_mark TEXT;

-- write_subscription (sql 0024) with the mark, p_panel_mark (NULL: the stored one is kept).
CREATE OR REPLACE FUNCTION write_subscription(
    p_user BIGINT, p_status TEXT, p_is_trial BOOLEAN, p_plan_id BIGINT, p_plan_snapshot JSONB, p_start_at BIGINT,
    p_expire_at BIGINT, p_device_limit INTEGER, p_traffic_limit BIGINT, p_traffic_used BIGINT, p_panel_uuid UUID,
    p_short_uuid TEXT, p_subscription_url TEXT, p_read_revision BIGINT, p_source TEXT, p_transaction BIGINT,
    p_days INTEGER, p_expire_before BIGINT, p_panel_mark TEXT)
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    written BIGINT;
BEGIN
    INSERT INTO subscriptions AS s (user_id, status, is_trial, plan_id, plan_snapshot, start_at, expire_at, device_limit,
                                    traffic_limit_bytes, traffic_used_bytes, panel_uuid, short_uuid, subscription_url,
                                    panel_mark, updated_at)
    VALUES (p_user, p_status, p_is_trial, p_plan_id, p_plan_snapshot, to_timestamp(p_start_at), to_timestamp(p_expire_at),
            p_device_limit, p_traffic_limit, p_traffic_used, p_panel_uuid, p_short_uuid, p_subscription_url, p_panel_mark,
            now())
    ON CONFLICT (user_id) DO UPDATE SET status = EXCLUDED.status, is_trial = EXCLUDED.is_trial,
        plan_id = EXCLUDED.plan_id, plan_snapshot = EXCLUDED.plan_snapshot, start_at = EXCLUDED.start_at,
        expire_at = EXCLUDED.expire_at, device_limit = EXCLUDED.device_limit,
        traffic_limit_bytes = EXCLUDED.traffic_limit_bytes, traffic_used_bytes = EXCLUDED.traffic_used_bytes,
        panel_uuid = EXCLUDED.panel_uuid, short_uuid = EXCLUDED.short_uuid,
        subscription_url = EXCLUDED.subscription_url, panel_mark = coalesce(EXCLUDED.panel_mark, s.panel_mark),
        updated_at = now()
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

-- settle_purchase (sql 0024) with the mark of its panel write, p_panel_mark.
CREATE OR REPLACE FUNCTION settle_purchase(
    p_user BIGINT, p_price BIGINT, p_currency TEXT, p_method TEXT, p_order JSONB, p_pricing JSONB, p_description TEXT,
    p_idempotency_key TEXT, p_reason TEXT,
    s_status TEXT, s_is_trial BOOLEAN, s_plan_id BIGINT, s_snapshot JSONB, s_start_at BIGINT, s_expire_at BIGINT,
    s_device_limit INTEGER, s_traffic_limit BIGINT, s_traffic_used BIGINT, s_panel_uuid UUID, s_short_uuid TEXT,
    s_subscription_url TEXT, s_read_revision BIGINT, s_source TEXT, s_days INTEGER, s_expire_before BIGINT,
    p_consume_promo BOOLEAN,
    r_referrer BIGINT, r_commission BIGINT, r_bonus_kind TEXT, r_bonus_payload JSONB, r_bonus_dedupe TEXT,
    p_panel_mark TEXT,
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
                                     s_subscription_url, s_read_revision, s_source, o_transaction, s_days, s_expire_before,
                                     p_panel_mark);
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

-- The signatures of sql 0024 stay for a pool that still runs the version before this one
-- during an upgrade: its writes keep the stored mark, as they keep the panel's description.
CREATE OR REPLACE FUNCTION write_subscription(
    p_user BIGINT, p_status TEXT, p_is_trial BOOLEAN, p_plan_id BIGINT, p_plan_snapshot JSONB, p_start_at BIGINT,
    p_expire_at BIGINT, p_device_limit INTEGER, p_traffic_limit BIGINT, p_traffic_used BIGINT, p_panel_uuid UUID,
    p_short_uuid TEXT, p_subscription_url TEXT, p_read_revision BIGINT, p_source TEXT, p_transaction BIGINT,
    p_days INTEGER, p_expire_before BIGINT)
RETURNS BIGINT LANGUAGE sql AS $$
    SELECT write_subscription(p_user, p_status, p_is_trial, p_plan_id, p_plan_snapshot, p_start_at, p_expire_at,
                              p_device_limit, p_traffic_limit, p_traffic_used, p_panel_uuid, p_short_uuid,
                              p_subscription_url, p_read_revision, p_source, p_transaction, p_days, p_expire_before,
                              NULL::text);
$$;

CREATE OR REPLACE FUNCTION settle_purchase(
    p_user BIGINT, p_price BIGINT, p_currency TEXT, p_method TEXT, p_order JSONB, p_pricing JSONB, p_description TEXT,
    p_idempotency_key TEXT, p_reason TEXT,
    s_status TEXT, s_is_trial BOOLEAN, s_plan_id BIGINT, s_snapshot JSONB, s_start_at BIGINT, s_expire_at BIGINT,
    s_device_limit INTEGER, s_traffic_limit BIGINT, s_traffic_used BIGINT, s_panel_uuid UUID, s_short_uuid TEXT,
    s_subscription_url TEXT, s_read_revision BIGINT, s_source TEXT, s_days INTEGER, s_expire_before BIGINT,
    p_consume_promo BOOLEAN,
    r_referrer BIGINT, r_commission BIGINT, r_bonus_kind TEXT, r_bonus_payload JSONB, r_bonus_dedupe TEXT,
    OUT o_transaction BIGINT, OUT o_balance_after BIGINT, OUT o_revision BIGINT)
LANGUAGE sql AS $$
    SELECT * FROM settle_purchase(p_user, p_price, p_currency, p_method, p_order, p_pricing, p_description,
                                  p_idempotency_key, p_reason, s_status, s_is_trial, s_plan_id, s_snapshot, s_start_at,
                                  s_expire_at, s_device_limit, s_traffic_limit, s_traffic_used, s_panel_uuid,
                                  s_short_uuid, s_subscription_url, s_read_revision, s_source, s_days, s_expire_before,
                                  p_consume_promo, r_referrer, r_commission, r_bonus_kind, r_bonus_payload,
                                  r_bonus_dedupe, NULL::text);
$$;
