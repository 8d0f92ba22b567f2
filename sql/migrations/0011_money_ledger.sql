-- Money and subscription state stay exact under concurrency (issue 12; docs/decisions.md
-- "One locking rule for writers").

-- The balance ledger: every change of users.balance_minor is one row here, written in the
-- same statement as the change (ledger_move below), so the ledger of a user always sums to
-- the balance and `balance_after` of the newest row equals it. `cabinetctl check-ledger`
-- verifies both for every user; the constraint trigger at the end refuses any commit that
-- changed a balance without its ledger row.
CREATE TABLE balance_ledger (
    id             BIGSERIAL PRIMARY KEY,
    -- NULL once the user is deleted (an account merged away): the money trail stays.
    user_id        BIGINT REFERENCES users(id) ON DELETE SET NULL,
    delta_minor    BIGINT NOT NULL CHECK (delta_minor <> 0),
    balance_after  BIGINT NOT NULL CHECK (balance_after >= 0),
    -- opening: the balance a user had when the ledger started; purchase, trial, autopay:
    -- charges; promo, referral_commission: credits; merge_in/merge_out: an account merge;
    -- admin: cabinetctl user set-balance, demo data; deposit, refund: kept for top-ups
    reason         TEXT NOT NULL CHECK (reason IN ('opening', 'purchase', 'trial', 'autopay', 'promo',
                                                   'referral_commission', 'merge_in', 'merge_out', 'admin',
                                                   'deposit', 'refund')),
    transaction_id BIGINT REFERENCES transactions(id) ON DELETE SET NULL,
    note           TEXT NOT NULL DEFAULT '',
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX balance_ledger_user_idx ON balance_ledger (user_id, id);
CREATE INDEX balance_ledger_transaction_idx ON balance_ledger (transaction_id) WHERE transaction_id IS NOT NULL;

-- When the ledger started: balance purchases made before it have no ledger row.
CREATE TABLE ledger_meta (
    id         SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    started_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO ledger_meta (id) VALUES (1);

INSERT INTO balance_ledger (user_id, delta_minor, balance_after, reason, note)
SELECT id, balance_minor, balance_minor, 'opening', 'balance when the ledger started'
FROM users WHERE balance_minor <> 0 ORDER BY id;

-- The one way to move money: the balance changes by p_delta and the ledger gets its row, in
-- one statement, under the user's row lock (the UPDATE takes it). A charge that would make
-- the balance negative changes nothing and returns NULL; otherwise the new balance.
CREATE FUNCTION ledger_move(p_user BIGINT, p_delta BIGINT, p_reason TEXT, p_transaction BIGINT DEFAULT NULL,
                            p_note TEXT DEFAULT '')
RETURNS BIGINT LANGUAGE sql AS $$
    WITH moved AS (
        UPDATE users SET balance_minor = balance_minor + p_delta, updated_at = now()
        WHERE id = p_user AND balance_minor + p_delta >= 0 AND p_delta <> 0
        RETURNING id, balance_minor
    ), entry AS (
        INSERT INTO balance_ledger (user_id, delta_minor, balance_after, reason, transaction_id, note)
        SELECT id, p_delta, balance_minor, p_reason, p_transaction, p_note FROM moved
        RETURNING balance_after
    )
    SELECT balance_after FROM entry
$$;

-- An operator's "the balance is now X": the difference goes through ledger_move. Returns the
-- new balance (also when nothing had to change).
CREATE FUNCTION ledger_set_balance(p_user BIGINT, p_balance BIGINT, p_reason TEXT DEFAULT 'admin',
                                   p_note TEXT DEFAULT '')
RETURNS BIGINT LANGUAGE plpgsql AS $$
DECLARE
    current BIGINT;
BEGIN
    IF p_balance < 0 THEN
        RAISE EXCEPTION 'a balance cannot be negative (%)', p_balance USING ERRCODE = 'check_violation';
    END IF;
    SELECT balance_minor INTO current FROM users WHERE id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no user %', p_user USING ERRCODE = 'no_data_found';
    END IF;
    IF current = p_balance THEN
        RETURN current;
    END IF;
    RETURN ledger_move(p_user, p_balance - current, p_reason, NULL, p_note);
END
$$;

-- The guard: at commit, a user whose balance changed (or who was created with one) must
-- have a ledger whose newest row ends at that balance. A writer that bypasses ledger_move,
-- in code or by hand in psql, fails its commit instead of leaving money unexplained.
CREATE FUNCTION balance_ledger_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    current BIGINT;
    last_after BIGINT;
BEGIN
    SELECT balance_minor INTO current FROM users WHERE id = NEW.id;
    IF NOT FOUND THEN
        RETURN NULL;  -- deleted later in the same transaction (an account merge)
    END IF;
    SELECT balance_after INTO last_after FROM balance_ledger WHERE user_id = NEW.id ORDER BY id DESC LIMIT 1;
    IF current IS DISTINCT FROM coalesce(last_after, 0) THEN
        RAISE EXCEPTION 'balance of user % is % but its ledger ends at %: move money with ledger_move() or ledger_set_balance()',
            NEW.id, current, coalesce(last_after, 0) USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER users_balance_ledger_update AFTER UPDATE OF balance_minor ON users
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (OLD.balance_minor IS DISTINCT FROM NEW.balance_minor)
    EXECUTE FUNCTION balance_ledger_guard();
CREATE CONSTRAINT TRIGGER users_balance_ledger_insert AFTER INSERT ON users
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (NEW.balance_minor <> 0)
    EXECUTE FUNCTION balance_ledger_guard();

-- Subscriptions carry a revision that every change of their state bumps (a trigger, so no
-- writer can forget). A write derived from a read says which revision it read; if the row
-- moved since, the write matches no row and fails instead of overwriting a newer state (the
-- lost update of issue 12). The traffic counter is a measurement, written by readers
-- without the user's lock: it does not bump the revision, so it cannot fail a grant.
ALTER TABLE subscriptions ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
CREATE FUNCTION subscriptions_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF ROW(NEW.user_id, NEW.status, NEW.is_trial, NEW.plan_id, NEW.plan_snapshot, NEW.start_at, NEW.expire_at,
           NEW.device_limit, NEW.traffic_limit_bytes, NEW.panel_uuid, NEW.short_uuid, NEW.subscription_url,
           NEW.crypto_link, NEW.autopay_enabled, NEW.link_reset_at)
       IS DISTINCT FROM
       ROW(OLD.user_id, OLD.status, OLD.is_trial, OLD.plan_id, OLD.plan_snapshot, OLD.start_at, OLD.expire_at,
           OLD.device_limit, OLD.traffic_limit_bytes, OLD.panel_uuid, OLD.short_uuid, OLD.subscription_url,
           OLD.crypto_link, OLD.autopay_enabled, OLD.link_reset_at) THEN
        NEW.revision := OLD.revision + 1;
    ELSE
        NEW.revision := OLD.revision;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER subscriptions_revision BEFORE UPDATE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION subscriptions_bump_revision();

-- What happened to a subscription's expiry, grant by grant: what the writer read
-- (expire_before, NULL for a new subscription), what it wrote, and why. Support reads it to
-- answer "where did my days go"; the race tests check that each row starts where the
-- previous one ended (a grant derived from a stale read would not). Manual edits of
-- expire_at by SQL are not recorded.
CREATE TABLE subscription_history (
    id             BIGSERIAL PRIMARY KEY,
    user_id        BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    source         TEXT NOT NULL,     -- purchase, trial, promo, referral_bonus, fulfil, autopay, panel_sync, merge, repair
    transaction_id BIGINT REFERENCES transactions(id) ON DELETE SET NULL,
    days           INTEGER NOT NULL DEFAULT 0,
    expire_before  TIMESTAMPTZ,
    expire_after   TIMESTAMPTZ NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX subscription_history_user_idx ON subscription_history (user_id, id);
