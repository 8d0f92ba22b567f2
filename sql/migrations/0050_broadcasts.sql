-- The owner's broadcasts (issue 48): a message to an audience of customers, sent by the
-- worker at Telegram's pace, each customer at most once (docs/decisions.md "Broadcasts").

-- Set when the Bot API answers 403 to a message (the customer blocked the bot, or deleted
-- their account): every later audience leaves them out.
ALTER TABLE users ADD COLUMN IF NOT EXISTS bot_blocked_at timestamptz;

CREATE TABLE IF NOT EXISTS broadcasts (
    id              bigserial PRIMARY KEY,
    status          text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'done', 'cancelled')),
    audience_kind   text NOT NULL
                    CHECK (audience_kind IN ('all', 'active', 'trial', 'expired', 'never_paid', 'promo_group', 'customer')),
    promo_group_id  bigint REFERENCES promo_groups (id) ON DELETE SET NULL,
    customer_id     bigint REFERENCES users (id) ON DELETE SET NULL,
    text            text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 16384),
    button_text     text CHECK (char_length(button_text) BETWEEN 1 AND 64),
    button_url      text CHECK (char_length(button_url) BETWEEN 1 AND 512),
    CHECK ((button_text IS NULL) = (button_url IS NULL)),
    created_by      text NOT NULL,
    -- The create request's Idempotency-Key: a double click makes one broadcast.
    idempotency_key text UNIQUE CHECK (char_length(idempotency_key) BETWEEN 1 AND 100),
    -- Counted as the worker records each outcome; pending = total - the three.
    total           integer NOT NULL DEFAULT 0,
    delivered       integer NOT NULL DEFAULT 0,
    blocked         integer NOT NULL DEFAULT 0,
    failed          integer NOT NULL DEFAULT 0,
    created_at      timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz,
    cancelled_by    text
);

-- One row a customer of a broadcast, written when its sending starts (one INSERT … SELECT).
-- The primary key is what makes a second message to one customer impossible: a row moves
-- pending → sending (committed before the Bot API call) → delivered | blocked | failed,
-- and only a pending row is ever claimed. A row a stopped worker left in `sending` is
-- never sent again: it ends as failed, "unknown".
CREATE TABLE IF NOT EXISTS broadcast_recipients (
    broadcast_id bigint NOT NULL REFERENCES broadcasts (id) ON DELETE CASCADE,
    user_id      bigint NOT NULL,
    telegram_id  bigint NOT NULL,
    state        text NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'sending', 'delivered', 'blocked', 'failed')),
    error        text,
    sent_at      timestamptz,
    PRIMARY KEY (broadcast_id, user_id)
);
-- The worker's claim and its clean-up read only the rows still to do.
CREATE INDEX IF NOT EXISTS broadcast_recipients_pending_idx ON broadcast_recipients (broadcast_id, user_id)
    WHERE state IN ('pending', 'sending');

-- The audience of a broadcast, as the owner's customer filters define its kinds
-- (services/customer_search.cpp): customers with a Telegram account, not blocked by the
-- shop and not known to have blocked the bot. "never_paid": no payment through a
-- provider ever completed (a refunded one was paid once). One query per kind, so each is
-- planned for its own filter.
CREATE OR REPLACE FUNCTION broadcast_audience(kind text, group_id bigint, one_customer bigint)
    RETURNS TABLE (user_id bigint, telegram_id bigint) LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF kind = 'all' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u
            WHERE u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL;
    ELSIF kind = 'active' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u JOIN subscriptions s ON s.user_id = u.id
            WHERE u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL
              AND s.status NOT IN ('disabled', 'pending') AND s.expire_at > now() AND NOT s.is_trial;
    ELSIF kind = 'trial' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u JOIN subscriptions s ON s.user_id = u.id
            WHERE u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL
              AND s.status NOT IN ('disabled', 'pending') AND s.expire_at > now() AND s.is_trial;
    ELSIF kind = 'expired' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u JOIN subscriptions s ON s.user_id = u.id
            WHERE u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL
              AND (s.status = 'disabled' OR (s.status <> 'pending' AND s.expire_at <= now()));
    ELSIF kind = 'never_paid' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u
            WHERE u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL
              AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.user_id = u.id AND t.provider IS NOT NULL
                                AND t.status IN ('completed', 'refunded'));
    ELSIF kind = 'promo_group' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u
            WHERE u.promo_group_id = group_id
              AND u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL;
    ELSIF kind = 'customer' THEN
        RETURN QUERY SELECT u.id, u.telegram_id FROM users u
            WHERE u.id = one_customer
              AND u.telegram_id IS NOT NULL AND NOT u.is_blocked AND u.bot_blocked_at IS NULL;
    ELSE
        RAISE EXCEPTION 'unknown broadcast audience %', kind;
    END IF;
END
$$;
