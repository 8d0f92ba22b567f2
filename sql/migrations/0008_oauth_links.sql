-- OAuth identities linked to users (issue 7): a provider's account (its stable subject id)
-- belongs to at most one user, and a user has at most one account per provider. Written by
-- OAuth login/link, moved by the web→Telegram account merge, read by GET /linked.
CREATE TABLE user_oauth_links (
    id           BIGSERIAL PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    provider     TEXT NOT NULL CHECK (provider IN ('google', 'yandex', 'vk')),
    subject      TEXT NOT NULL CHECK (subject <> ''),   -- the provider's user id
    email        TEXT,                                  -- as the provider reported it
    display_name TEXT NOT NULL DEFAULT '',
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (provider, subject),
    UNIQUE (user_id, provider)
);
