#include "db/statements.hpp"

namespace cabinet {

#define SUPPORT_TICKET_COLUMNS                                                                      \
    "t.id, t.user_id, t.status, floor(extract(epoch FROM t.created_at))::bigint AS created_at, "  \
    "floor(extract(epoch FROM t.updated_at))::bigint AS updated_at, u.telegram_id, u.username, "  \
    "coalesce(u.email, '') AS email "

#define SUPPORT_INBOX_SELECT                                                                          \
    "SELECT " SUPPORT_TICKET_COLUMNS ", u.first_name, t.unread, "                                   \
    "(extract(epoch FROM t.updated_at) * 1000000)::bigint AS updated_us, "                          \
    "(SELECT count(*) FROM support_messages c WHERE c.ticket_id = t.id) AS messages, "              \
    "l.author AS last_author, left(l.text, 200) AS last_text, "                                     \
    "floor(extract(epoch FROM l.created_at))::bigint AS last_at "                                   \
    "FROM support_tickets t JOIN users u ON u.id = t.user_id "                                      \
    "LEFT JOIN LATERAL (SELECT author, text, created_at FROM support_messages "                     \
    "  WHERE ticket_id = t.id ORDER BY id DESC LIMIT 1) l ON true "
#define SUPPORT_INBOX_WHERE                                                                           \
    "($2::boolean IS NULL OR (t.unread, t.updated_at, t.id) < "                                     \
    "  ($2, 'epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4::bigint)) "            \
    "AND ($5::bigint IS NULL OR t.id = $5 OR t.user_id = $5 OR u.telegram_id = $5) "                \
    "AND ($6::text IS NULL OR u.username ILIKE $6 || '%' OR u.first_name ILIKE '%' || $6 || '%' "   \
    "  OR u.last_name ILIKE '%' || $6 || '%' OR u.email LIKE lower($6) || '%') "                    \
    "ORDER BY t.unread DESC, t.updated_at DESC, t.id DESC LIMIT $7"

// The support chat (services/support.cpp) and the owner's inbox (services/support_admin.cpp).
std::vector<Statement> support_statements() {
    return {
        // The user's open ticket, created when there is none. The partial unique index
        // (one not-closed ticket per user) turns parallel first messages into one insert
        // and row-locked updates of it. xmax = 0 only on the row this statement inserted.
        {"support_upsert_open_ticket",
         "INSERT INTO support_tickets (user_id, unread) VALUES ($1, true) "
         "ON CONFLICT (user_id) WHERE status <> 'closed' DO UPDATE SET status = 'open', updated_at = now(), unread = true "
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
        // Staff answered or closed it: read (sql 0049).
        {"support_set_status", "UPDATE support_tickets SET status = $2, updated_at = now(), unread = false WHERE id = $1"},
        // Who wrote: the notification names the user by every handle we know.
        {"support_user_handles",
         "SELECT telegram_id, username, coalesce(email, '') AS email FROM users WHERE id = $1"},
        // $1 = '' lists every status.
        {"support_list",
         "SELECT " SUPPORT_TICKET_COLUMNS ", (SELECT count(*) FROM support_messages m WHERE m.ticket_id = t.id) AS messages "
         "FROM support_tickets t JOIN users u ON u.id = t.user_id "
         "WHERE $1 = '' OR t.status = $1 ORDER BY t.updated_at DESC, t.id DESC LIMIT $2"},

        // ---- The owner's inbox (services/support_admin.cpp; sql 0049) ----
        // A page of the inbox: unread first, then the newest activity; the cursor ($2..$4:
        // unread, updated_at in microseconds since the epoch, id) is the last row of the page
        // before. $5: a number the ticket, its customer's id or Telegram id may be; $6: a
        // LIKE-escaped fragment of the customer's @username (prefix), name or e-mail. One
        // statement with and one without the status filter ($1), so each walks its index.
        {"support_inbox_by_status", SUPPORT_INBOX_SELECT "WHERE t.status = $1 AND " SUPPORT_INBOX_WHERE},
        {"support_inbox_any", SUPPORT_INBOX_SELECT "WHERE $1 = '' AND " SUPPORT_INBOX_WHERE},
        {"support_inbox_counts",
         "SELECT count(*) FILTER (WHERE status = 'open') AS open, count(*) FILTER (WHERE status = 'waiting') AS waiting,"
         " count(*) FILTER (WHERE unread) AS unread FROM support_tickets WHERE status <> 'closed'"},
        // The ticket for staff: SUPPORT_TICKET_COLUMNS and the inbox's fields.
        {"support_staff_ticket",
         "SELECT " SUPPORT_TICKET_COLUMNS ", t.unread, (SELECT count(*) FROM support_messages m WHERE m.ticket_id = t.id) AS messages "
         "FROM support_tickets t JOIN users u ON u.id = t.user_id WHERE t.id = $1"},
        // Messages $3 at most before message $2 (NULL: the newest), newest first.
        {"support_staff_messages",
         "SELECT id, author, text, floor(extract(epoch FROM created_at))::bigint AS at FROM support_messages "
         "WHERE ticket_id = $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3"},
        {"support_mark_read", "UPDATE support_tickets SET unread = false WHERE id = $1 AND unread"},
        // What the thread's side panel shows of its customer.
        {"support_customer_summary",
         "SELECT u.id, u.telegram_id, u.username, u.first_name, u.last_name, u.email, u.is_blocked, u.balance_minor,"
         " u.currency, floor(extract(epoch FROM u.created_at))::bigint AS created_at, s.status AS sub_status, s.is_trial,"
         " coalesce(s.plan_snapshot->>'name', '') AS plan_name, floor(extract(epoch FROM s.expire_at))::bigint AS expire_at,"
         " s.traffic_limit_bytes, s.traffic_used_bytes "
         "FROM users u LEFT JOIN subscriptions s ON s.user_id = u.id WHERE u.id = $1"},
        // Another ticket of the same customer that is not closed (a reopen would make two).
        {"support_other_open_ticket",
         "SELECT id FROM support_tickets WHERE user_id = $1 AND status <> 'closed' AND id <> $2"},
        // Reopened: open when the customer spoke last, waiting when support did.
        {"support_reopen",
         "UPDATE support_tickets t SET updated_at = now(), status = CASE WHEN (SELECT m.author FROM support_messages m"
         " WHERE m.ticket_id = t.id ORDER BY m.id DESC LIMIT 1) = 'support' THEN 'waiting' ELSE 'open' END WHERE t.id = $1"},
    };
}

#undef SUPPORT_INBOX_WHERE
#undef SUPPORT_INBOX_SELECT
#undef SUPPORT_TICKET_COLUMNS

}  // namespace cabinet
