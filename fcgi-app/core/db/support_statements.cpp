#include "db/statements.hpp"

namespace cabinet {

#define SUPPORT_TICKET_COLUMNS                                                                      \
    "t.id, t.user_id, t.status, floor(extract(epoch FROM t.created_at))::bigint AS created_at, "  \
    "floor(extract(epoch FROM t.updated_at))::bigint AS updated_at, u.telegram_id, u.username, "  \
    "coalesce(u.email, '') AS email "

// The support chat (services/support.cpp).
std::vector<Statement> support_statements() {
    return {
        // The user's open ticket, created when there is none. The partial unique index
        // (one not-closed ticket per user) turns parallel first messages into one insert
        // and row-locked updates of it. xmax = 0 only on the row this statement inserted.
        {"support_upsert_open_ticket",
         "INSERT INTO support_tickets (user_id) VALUES ($1) "
         "ON CONFLICT (user_id) WHERE status <> 'closed' DO UPDATE SET status = 'open', updated_at = now() "
         "RETURNING id, (xmax = 0) AS created"},
        {"support_insert_message",
         "INSERT INTO support_messages (ticket_id, author, text) VALUES ($1, $2, $3) RETURNING id"},
        // Support's answer; with a source ($3) it is stored once: no row when it already is.
        {"support_insert_answer",
         "INSERT INTO support_messages (ticket_id, author, text, source_ref) VALUES ($1, 'support', $2, $3)"
         " ON CONFLICT (source_ref) WHERE source_ref IS NOT NULL DO NOTHING RETURNING id"},
        // A user's messages of the last 10 minutes, and when the oldest of them leaves the window.
        {"support_recent_user_messages",
         "SELECT count(*) AS n, coalesce(ceil(extract(epoch FROM min(m.created_at) + interval '10 minutes' - now())), 0)::bigint AS wait_s "
         "FROM support_messages m JOIN support_tickets t ON t.id = m.ticket_id "
         "WHERE t.user_id = $1 AND m.author = 'user' AND m.created_at > now() - interval '10 minutes'"},
        // The reporting group's notification about message $1 went out as Telegram message $2 in chat $3.
        {"support_set_notification",
         "UPDATE support_messages SET notification_message_id = $2, notification_chat_id = $3 WHERE id = $1"},
        // The ticket an admin's Telegram reply answers: the one whose notification it quotes,
        // in that chat (a notification stored before sql 0040 has no chat).
        {"support_ticket_by_notification",
         "SELECT ticket_id FROM support_messages WHERE notification_message_id = $1"
         " AND (notification_chat_id = $2 OR notification_chat_id IS NULL) ORDER BY id DESC LIMIT 1"},
        // The open ticket of a user with its last $2 messages, oldest first (no rows: no open
        // ticket; one row with NULL message fields: a ticket without messages).
        {"support_open_ticket_of_user",
         "SELECT t.id, t.status, m.author, m.text, floor(extract(epoch FROM m.created_at))::bigint AS at "
         "FROM support_tickets t LEFT JOIN LATERAL (SELECT id, author, text, created_at FROM support_messages"
         "  WHERE ticket_id = t.id ORDER BY id DESC LIMIT $2) m ON true "
         "WHERE t.user_id = $1 AND t.status <> 'closed' ORDER BY m.id"},
        {"support_ticket",
         "SELECT " SUPPORT_TICKET_COLUMNS "FROM support_tickets t JOIN users u ON u.id = t.user_id WHERE t.id = $1"},
        {"support_ticket_for_update",
         "SELECT " SUPPORT_TICKET_COLUMNS "FROM support_tickets t JOIN users u ON u.id = t.user_id "
         "WHERE t.id = $1 FOR UPDATE OF t"},
        {"support_ticket_messages",
         "SELECT author, text, floor(extract(epoch FROM created_at))::bigint AS at FROM support_messages "
         "WHERE ticket_id = $1 ORDER BY id"},
        {"support_set_status", "UPDATE support_tickets SET status = $2, updated_at = now() WHERE id = $1"},
        // Who wrote: the notification names the user by every handle we know.
        {"support_user_handles",
         "SELECT telegram_id, username, coalesce(email, '') AS email FROM users WHERE id = $1"},
        // $1 = '' lists every status.
        {"support_list",
         "SELECT " SUPPORT_TICKET_COLUMNS ", (SELECT count(*) FROM support_messages m WHERE m.ticket_id = t.id) AS messages "
         "FROM support_tickets t JOIN users u ON u.id = t.user_id "
         "WHERE $1 = '' OR t.status = $1 ORDER BY t.updated_at DESC, t.id DESC LIMIT $2"},
    };
}

#undef SUPPORT_TICKET_COLUMNS

}  // namespace cabinet
