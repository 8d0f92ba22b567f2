-- Support chat (issue 7; SPEC-GAPS "Cabinet shapes": GET/POST /support;
-- fcgi-app/core/services/support.hpp).

-- A user's conversation with support. At most one ticket per user is not closed: the
-- partial unique index below is what makes two parallel first messages end in one ticket
-- (INSERT ... ON CONFLICT on it), so no code path has to get the check-then-insert right.
CREATE TABLE support_tickets (
    id         BIGSERIAL PRIMARY KEY,
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- open: the user spoke last; waiting: support answered; closed: done (a new message
    -- then starts a new ticket).
    status     TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'waiting', 'closed')),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX support_tickets_one_open_idx ON support_tickets (user_id) WHERE status <> 'closed';
-- cabinetctl support list [--status S]: newest activity first.
CREATE INDEX support_tickets_status_idx ON support_tickets (status, updated_at DESC);

CREATE TABLE support_messages (
    id                      BIGSERIAL PRIMARY KEY,
    ticket_id               BIGINT NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
    author                  TEXT NOT NULL CHECK (author IN ('user', 'support')),
    text                    TEXT NOT NULL CHECK (char_length(text) BETWEEN 1 AND 4096),
    created_at              TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- message_id of the reporting group's notification about this message, so an admin's
    -- Telegram reply to it can be routed back to the ticket (NULL until it was sent).
    notification_message_id BIGINT
);
CREATE INDEX support_messages_ticket_idx ON support_messages (ticket_id, id);
CREATE INDEX support_messages_notification_idx ON support_messages (notification_message_id)
    WHERE notification_message_id IS NOT NULL;
