-- /me tells the customer which e-mail is linked (issue 49: "/me gains the customer's
-- Telegram id and e-mail where linked"): the account read carries users.email and
-- email_verified.
--
-- Added beside sql 0036's account_rows, locked_account_rows and lock_account(), not in
-- their place: the running pool has its account reads (SELECT * FROM them) prepared, and a
-- view whose columns change under a prepared statement fails it ("cached plan must not
-- change result type") until the process restarts. With _v2 beside them the old version
-- keeps working between `cabinetctl migrate` and its restart, as every migration promises
-- (docs/operations.md "Upgrades"); a later migration may drop the old three.

CREATE OR REPLACE VIEW account_rows_v2 AS
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
       (SELECT version FROM catalog_version) AS catalog_version,
       u.email, u.email_verified
FROM users u
LEFT JOIN subscriptions s ON s.user_id = u.id
LEFT JOIN promo_groups g ON g.id = u.promo_group_id;
-- The same with the sale running now: a writer prices from it in the same transaction
-- (services/order).
CREATE OR REPLACE VIEW locked_account_rows_v2 AS
SELECT a.*,
       (SELECT coalesce(max(discount_pct), 0) FROM sales WHERE starts_at <= now() AND ends_at > now())
           AS running_sale_pct
FROM account_rows_v2 a;

-- Locks the user row (FOR UPDATE), then reads the account in a second statement: no row
-- when there is no such user. VOLATILE (the default) is what gives the read its own
-- snapshot; do not mark this function STABLE.
CREATE OR REPLACE FUNCTION lock_account_v2(p_user BIGINT) RETURNS SETOF locked_account_rows_v2
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM 1 FROM users WHERE id = p_user FOR UPDATE;
    IF FOUND THEN
        RETURN QUERY SELECT * FROM locked_account_rows_v2 WHERE id = p_user;
    END IF;
END
$$;
