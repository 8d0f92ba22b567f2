-- A writer's lock and its locked read in one round trip (issue 17).
--
-- The locking rule (docs/decisions.md "One locking rule for writers") is: lock the user
-- row alone in its own statement, then read everything the write derives from in later
-- statements, each with a new snapshot that sees every commit made before the lock was
-- ours. The pool sent those as two statements, two round trips. A volatile PL/pgSQL
-- function runs each of its statements with a new snapshot under READ COMMITTED, so
-- lock_account() below keeps the rule to the letter and costs one round trip.
--
-- The account's columns are defined once, here, as the view account_rows; the pool's
-- account reads select from it (db/statements.cpp), so the cached read and the locked
-- read cannot drift apart. Views are expanded into the query: the plans are the ones the
-- statements had with the same columns spelled out.

CREATE OR REPLACE VIEW account_rows AS
SELECT u.id, u.telegram_id, u.username, u.first_name, u.last_name, u.language, u.currency, u.balance_minor,
       u.referral_code, u.personal_discount_pct, u.is_blocked, u.trial_used,
       s.status AS sub_status, s.is_trial, s.plan_snapshot->>'name' AS plan_name,
       floor(extract(epoch FROM s.start_at))::bigint AS start_at,
       floor(extract(epoch FROM s.expire_at))::bigint AS expire_at,
       s.device_limit, s.traffic_limit_bytes, s.traffic_used_bytes, s.subscription_url, s.crypto_link,
       s.autopay_enabled, s.plan_id, s.panel_uuid::text AS panel_uuid, s.short_uuid,
       coalesce(floor(extract(epoch FROM s.link_reset_at))::bigint, 0) AS link_reset_at,
       s.revision AS sub_revision,
       coalesce(floor(extract(epoch FROM s.traffic_synced_at))::bigint, 0) AS traffic_synced_at,
       u.referred_by, coalesce(g.discount_pct, 0) AS group_discount_pct,
       CASE WHEN u.promo_discount_until IS NULL OR u.promo_discount_until > now()
            THEN u.promo_discount_pct ELSE 0 END AS promo_discount_pct,
       coalesce(floor(extract(epoch FROM u.promo_discount_until))::bigint, 0) AS promo_discount_until,
       (SELECT version FROM catalog_version) AS catalog_version
FROM users u
LEFT JOIN subscriptions s ON s.user_id = u.id
LEFT JOIN promo_groups g ON g.id = u.promo_group_id;

-- The same with the sale running now: a writer prices from it in the same transaction
-- (services/order).
CREATE OR REPLACE VIEW locked_account_rows AS
SELECT a.*,
       (SELECT coalesce(max(discount_pct), 0) FROM sales WHERE starts_at <= now() AND ends_at > now())
           AS running_sale_pct
FROM account_rows a;

-- Locks the user row (FOR UPDATE), then reads the account in a second statement: no row
-- when there is no such user. VOLATILE (the default) is what gives the read its own
-- snapshot; do not mark this function STABLE.
CREATE OR REPLACE FUNCTION lock_account(p_user BIGINT) RETURNS SETOF locked_account_rows
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
    IF FOUND THEN
        RETURN QUERY SELECT * FROM locked_account_rows WHERE id = p_user;
    END IF;
END
$$;
