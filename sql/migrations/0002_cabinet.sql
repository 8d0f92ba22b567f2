-- The subscription cabinet: sales, promo codes, transactions, referral ledger, constructor
-- price list, traffic history, link-rotation limit.

-- Shop-wide sales: the largest running one applies to every price.
CREATE TABLE sales (
    id           BIGSERIAL PRIMARY KEY,
    name         TEXT NOT NULL,
    discount_pct INTEGER NOT NULL CHECK (discount_pct BETWEEN 1 AND 100),
    starts_at    TIMESTAMPTZ NOT NULL,
    ends_at      TIMESTAMPTZ NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (ends_at > starts_at)
);
CREATE INDEX sales_window_idx ON sales (starts_at, ends_at);

-- A promo-code "discount" reward: a percentage for the user's next purchase until it expires.
ALTER TABLE users ADD COLUMN promo_discount_pct INTEGER NOT NULL DEFAULT 0
    CHECK (promo_discount_pct BETWEEN 0 AND 100);
ALTER TABLE users ADD COLUMN promo_discount_until TIMESTAMPTZ;

CREATE TABLE promo_codes (
    id          BIGSERIAL PRIMARY KEY,
    code        TEXT NOT NULL CHECK (length(code) BETWEEN 2 AND 64),
    reward_type TEXT NOT NULL CHECK (reward_type IN ('balance', 'days', 'subscription', 'discount')),
    -- balance: minor units; days: days; subscription: days of plan_id; discount: percent
    value       BIGINT NOT NULL CHECK (value > 0),
    plan_id     BIGINT REFERENCES plans(id) ON DELETE RESTRICT,
    max_uses    INTEGER CHECK (max_uses IS NULL OR max_uses > 0),   -- NULL = unlimited
    uses        INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0),
    valid_from  TIMESTAMPTZ,
    valid_until TIMESTAMPTZ,
    is_active   BOOLEAN NOT NULL DEFAULT true,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (reward_type <> 'subscription' OR plan_id IS NOT NULL),
    CHECK (reward_type <> 'discount' OR value <= 100),
    CHECK (max_uses IS NULL OR uses <= max_uses)
);
CREATE UNIQUE INDEX promo_codes_code_idx ON promo_codes (lower(code));

CREATE TABLE promo_activations (
    id            BIGSERIAL PRIMARY KEY,
    promo_code_id BIGINT NOT NULL REFERENCES promo_codes(id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (promo_code_id, user_id)
);

-- Money movements and purchases. A purchase freezes the plan and the pricing it was sold at.
CREATE TABLE transactions (
    id                  BIGSERIAL PRIMARY KEY,
    user_id             BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    type                TEXT NOT NULL CHECK (type IN ('deposit', 'withdrawal', 'subscription_payment', 'refund',
                                                      'referral_reward', 'gift')),
    status              TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'canceled', 'refunded', 'failed')),
    amount_minor        BIGINT NOT NULL CHECK (amount_minor >= 0),
    currency            TEXT NOT NULL,
    method              TEXT NOT NULL,          -- balance, stars, free, yookassa, cryptobot, promo, trial, ...
    plan_snapshot       JSONB,
    pricing             JSONB,
    description         TEXT NOT NULL DEFAULT '',
    provider_payment_id TEXT UNIQUE,
    idempotency_key     TEXT,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    completed_at        TIMESTAMPTZ,
    UNIQUE (user_id, idempotency_key)
);
CREATE INDEX transactions_user_created_idx ON transactions (user_id, created_at DESC, id DESC);

CREATE TABLE referral_earnings (
    id             BIGSERIAL PRIMARY KEY,
    referrer_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    referral_id    BIGINT REFERENCES users(id) ON DELETE SET NULL,
    transaction_id BIGINT REFERENCES transactions(id) ON DELETE SET NULL UNIQUE,
    amount_minor   BIGINT NOT NULL CHECK (amount_minor >= 0),
    created_at     TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX referral_earnings_referrer_idx ON referral_earnings (referrer_id);

-- Constructor mode: a period plus a traffic pack (gb 0 = unlimited).
CREATE TABLE constructor_periods (
    id          BIGSERIAL PRIMARY KEY,
    days        INTEGER NOT NULL UNIQUE CHECK (days > 0),
    months      INTEGER NOT NULL DEFAULT 0 CHECK (months >= 0),
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    is_active   BOOLEAN NOT NULL DEFAULT true
);
CREATE TABLE constructor_packs (
    id          BIGSERIAL PRIMARY KEY,
    gb          INTEGER NOT NULL UNIQUE CHECK (gb >= 0),
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    is_active   BOOLEAN NOT NULL DEFAULT true
);

-- Daily cumulative usage, written by the panel sync job, for the traffic chart.
CREATE TABLE traffic_snapshots (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day        DATE NOT NULL,
    used_bytes BIGINT NOT NULL CHECK (used_bytes >= 0),
    PRIMARY KEY (user_id, day)
);

-- Link rotation is allowed once per 10 minutes; kept here so it holds without Redis.
ALTER TABLE subscriptions ADD COLUMN link_reset_at TIMESTAMPTZ;
