-- Core schema: users, subscriptions, plans and their durations, app config, events.
-- Money is BIGINT minor units, volumes BIGINT bytes, time timestamptz (rendered UTC).

CREATE TABLE promo_groups (
    id               BIGSERIAL PRIMARY KEY,
    name             TEXT NOT NULL UNIQUE,
    discount_pct     INTEGER NOT NULL DEFAULT 0 CHECK (discount_pct BETWEEN 0 AND 100),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id                    BIGSERIAL PRIMARY KEY,
    telegram_id           BIGINT UNIQUE CHECK (telegram_id > 0),   -- NULL for web-only accounts
    username              TEXT NOT NULL DEFAULT '',
    first_name            TEXT NOT NULL DEFAULT '',
    last_name             TEXT NOT NULL DEFAULT '',
    language              TEXT NOT NULL DEFAULT 'ru',
    currency              TEXT NOT NULL DEFAULT 'RUB',
    balance_minor         BIGINT NOT NULL DEFAULT 0 CHECK (balance_minor >= 0),
    referral_code         TEXT NOT NULL UNIQUE,
    referred_by           BIGINT REFERENCES users(id) ON DELETE SET NULL,
    personal_discount_pct INTEGER NOT NULL DEFAULT 0 CHECK (personal_discount_pct BETWEEN 0 AND 100),
    promo_group_id        BIGINT REFERENCES promo_groups(id) ON DELETE SET NULL,
    is_blocked            BOOLEAN NOT NULL DEFAULT false,
    trial_used            BOOLEAN NOT NULL DEFAULT false,
    email                 TEXT UNIQUE,
    email_verified        BOOLEAN NOT NULL DEFAULT false,
    password_hash         TEXT,
    created_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at            TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX users_referred_by_idx ON users (referred_by) WHERE referred_by IS NOT NULL;

CREATE TABLE plans (
    id                  BIGSERIAL PRIMARY KEY,
    public_code         TEXT NOT NULL UNIQUE,
    name                TEXT NOT NULL,
    description         TEXT NOT NULL DEFAULT '',
    traffic_limit_bytes BIGINT CHECK (traffic_limit_bytes IS NULL OR traffic_limit_bytes >= 0),  -- NULL/0 = unlimited
    device_limit        INTEGER NOT NULL DEFAULT 1 CHECK (device_limit > 0),
    is_active           BOOLEAN NOT NULL DEFAULT true,
    sort_order          INTEGER NOT NULL DEFAULT 0,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE plan_durations (
    id          BIGSERIAL PRIMARY KEY,
    plan_id     BIGINT NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
    days        INTEGER NOT NULL CHECK (days > 0),
    months      INTEGER NOT NULL DEFAULT 0 CHECK (months >= 0),
    price_minor BIGINT NOT NULL CHECK (price_minor >= 0),
    UNIQUE (plan_id, days)
);

CREATE TABLE subscriptions (
    id                  BIGSERIAL PRIMARY KEY,
    user_id             BIGINT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    status              TEXT NOT NULL CHECK (status IN ('trial','active','limited','expired','disabled','pending')),
    is_trial            BOOLEAN NOT NULL DEFAULT false,
    plan_id             BIGINT REFERENCES plans(id) ON DELETE SET NULL,
    plan_snapshot       JSONB NOT NULL DEFAULT '{}'::jsonb,     -- frozen {name, ...} at purchase time
    start_at            TIMESTAMPTZ NOT NULL DEFAULT now(),
    expire_at           TIMESTAMPTZ NOT NULL,
    device_limit        INTEGER NOT NULL DEFAULT 1 CHECK (device_limit >= 0),
    traffic_limit_bytes BIGINT NOT NULL DEFAULT 0 CHECK (traffic_limit_bytes >= 0),   -- 0 = unlimited
    traffic_used_bytes  BIGINT NOT NULL DEFAULT 0 CHECK (traffic_used_bytes >= 0),
    panel_uuid          UUID UNIQUE,
    short_uuid          TEXT,
    subscription_url    TEXT,
    crypto_link         TEXT NOT NULL DEFAULT '',
    autopay_enabled     BOOLEAN NOT NULL DEFAULT false,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_expire_idx ON subscriptions (expire_at);

-- The owner's look and feel of the mini-app and web cabinet: one row.
CREATE TABLE app_config (
    id            SMALLINT PRIMARY KEY DEFAULT 1 CHECK (id = 1),
    template      TEXT NOT NULL DEFAULT 'a' CHECK (template ~ '^[a-h]$'),
    title         TEXT NOT NULL DEFAULT 'VPN',
    greeting      TEXT NOT NULL DEFAULT '',
    accent_color  TEXT NOT NULL DEFAULT '#2481cc' CHECK (accent_color ~ '^#[0-9a-fA-F]{6}$'),
    mtproto_proxy TEXT,
    ui            JSONB NOT NULL DEFAULT '{}'::jsonb,
    published_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO app_config (id) VALUES (1);

-- Append-only domain events (registration, ...), read by the bot and analytics.
CREATE TABLE events (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT REFERENCES users(id) ON DELETE SET NULL,
    kind       TEXT NOT NULL,
    payload    JSONB NOT NULL DEFAULT '{}'::jsonb,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX events_user_kind_idx ON events (user_id, kind);
