-- Pending online payments end, and a one-purchase promo offer is held by one invoice at a
-- time (issue 13, docs/decisions.md "Pending payments expire; one offer, one invoice").

-- When an unpaid Stars or gateway invoice stops being payable (PAYMENT_PENDING_TTL_S after
-- it was opened). Telegram's invoice links never expire by themselves: the pre-checkout
-- answer is what refuses a late one. Rows opened before this migration get an hour.
ALTER TABLE transactions ADD COLUMN expires_at TIMESTAMPTZ;
UPDATE transactions SET expires_at = created_at + interval '1 hour' WHERE status = 'pending';
CREATE INDEX transactions_pending_expiry_idx ON transactions (expires_at) WHERE status = 'pending' AND paid_at IS NULL;

-- The pending invoice whose price used the user's promo discount. The newest invoice takes
-- the offer over, a paid purchase consumes it, and an invoice that ends releases it; an
-- invoice that no longer holds the offer cannot be paid at its discounted price.
ALTER TABLE users ADD COLUMN promo_reserved_by BIGINT REFERENCES transactions(id) ON DELETE SET NULL;

-- An invoice that stops being pending (paid, canceled, expired, failed) lets its offer go.
CREATE FUNCTION release_promo_reservation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE users SET promo_reserved_by = NULL WHERE id = NEW.user_id AND promo_reserved_by = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER transactions_release_promo
    AFTER UPDATE OF status ON transactions
    FOR EACH ROW WHEN (OLD.status = 'pending' AND NEW.status <> 'pending')
    EXECUTE FUNCTION release_promo_reservation();

-- Do the offers a payment's price was built from still stand? The promo discount: the
-- invoice holds it, or it is free and still at least as large. The sale price: the invoice
-- was (or is being) paid in time, or a sale at least as large still runs. Pre-checkout and
-- fulfilment ask; a paid invoice whose offers do not stand is credited to the balance.
-- Never NULL: every comparison with a missing value counts as "does not stand".
CREATE FUNCTION payment_offer_holds(p_transaction BIGINT) RETURNS BOOLEAN LANGUAGE sql STABLE AS $$
    SELECT (coalesce((t.pricing->>'promo_pct')::int, 0) = 0
            OR coalesce(u.promo_reserved_by = t.id, false)
            OR (u.promo_reserved_by IS NULL
                AND u.promo_discount_pct >= (t.pricing->>'promo_pct')::int
                AND (u.promo_discount_until IS NULL OR u.promo_discount_until > now())))
       AND (coalesce((t.pricing->>'sale_pct')::int, 0) = 0
            OR coalesce(coalesce(t.paid_at, now()) <= t.expires_at, false)
            OR (SELECT coalesce(max(discount_pct), 0) FROM sales WHERE starts_at <= now() AND ends_at > now())
               >= (t.pricing->>'sale_pct')::int)
    FROM transactions t JOIN users u ON u.id = t.user_id
    WHERE t.id = p_transaction
$$;
