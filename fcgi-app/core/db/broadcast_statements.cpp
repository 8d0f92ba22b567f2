#include "db/statements.hpp"

namespace cabinet {

// The owner's broadcasts: the API's (services/broadcasts.cpp) and the worker's sending
// (services/broadcast_sending.cpp). The audiences are sql 0050's broadcast_audience().
std::vector<Statement> broadcast_statements() {
    return {
        {"broadcast_audience_count", "SELECT count(*) FROM broadcast_audience($1, $2, $3)"},
        {"broadcast_promo_group_id", "SELECT id FROM promo_groups WHERE name = $1"},
        {"broadcast_customer_exists", "SELECT 1 FROM users WHERE id = $1"},
        // The create request's Idempotency-Key: a second request with it waits for the
        // first's transaction, then finds its broadcast.
        {"broadcast_create",
         "INSERT INTO broadcasts (audience_kind, promo_group_id, customer_id, text, button_text, button_url, created_by,"
         " idempotency_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
         " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id"},
        {"broadcast_by_key", "SELECT id FROM broadcasts WHERE idempotency_key = $1"},
        {"broadcast_get",
         "SELECT b.id, b.status, b.audience_kind, g.name AS promo_group, b.customer_id, b.text, b.button_text,"
         "       b.button_url, b.created_by, b.total, b.delivered, b.blocked, b.failed, b.cancelled_by,"
         "       floor(extract(epoch FROM b.created_at))::bigint AS created_at,"
         "       floor(extract(epoch FROM b.started_at))::bigint AS started_at,"
         "       floor(extract(epoch FROM b.finished_at))::bigint AS finished_at"
         " FROM broadcasts b LEFT JOIN promo_groups g ON g.id = b.promo_group_id WHERE b.id = $1"},
        {"broadcast_page",
         "SELECT b.id, b.status, b.audience_kind, g.name AS promo_group, b.customer_id, b.text, b.button_text,"
         "       b.button_url, b.created_by, b.total, b.delivered, b.blocked, b.failed, b.cancelled_by,"
         "       floor(extract(epoch FROM b.created_at))::bigint AS created_at,"
         "       floor(extract(epoch FROM b.started_at))::bigint AS started_at,"
         "       floor(extract(epoch FROM b.finished_at))::bigint AS finished_at"
         " FROM broadcasts b LEFT JOIN promo_groups g ON g.id = b.promo_group_id"
         " WHERE ($1::bigint IS NULL OR b.id < $1) ORDER BY b.id DESC LIMIT $2"},
        // Who a broadcast reached and who not (the owner's "not reached" list): by customer id,
        // one state or all. The primary key's range of the broadcast, read in its order.
        {"broadcast_recipients_page",
         "SELECT r.user_id, r.telegram_id, r.state, r.error, floor(extract(epoch FROM r.sent_at))::bigint AS sent_at,"
         "       u.username, u.first_name"
         " FROM broadcast_recipients r JOIN users u ON u.id = r.user_id"
         " WHERE r.broadcast_id = $1 AND ($2::text IS NULL OR r.state = $2) AND r.user_id > $3"
         " ORDER BY r.user_id LIMIT $4"},
        {"broadcast_cancel",
         "UPDATE broadcasts SET status = 'cancelled', finished_at = now(), cancelled_by = $2"
         " WHERE id = $1 AND status IN ('queued', 'sending') RETURNING id"},

        // The worker. Its sending starts: the broadcast locked, its recipients written in
        // one statement, its total and start stamped.
        {"broadcast_lock", "SELECT status, audience_kind, promo_group_id, customer_id FROM broadcasts WHERE id = $1 FOR UPDATE"},
        {"broadcast_fill",
         "INSERT INTO broadcast_recipients (broadcast_id, user_id, telegram_id)"
         " SELECT $1, a.user_id, a.telegram_id FROM broadcast_audience($2, $3, $4) a ON CONFLICT DO NOTHING"},
        {"broadcast_started",
         "UPDATE broadcasts SET status = 'sending', started_at = now(), total = $2 WHERE id = $1 AND status = 'queued'"},
        {"broadcast_message", "SELECT status, text, button_text, button_url FROM broadcasts WHERE id = $1"},
        {"broadcast_status", "SELECT status FROM broadcasts WHERE id = $1"},
        // A row a stopped worker left between its mark and the answer: never sent again.
        {"broadcast_reap",
         "UPDATE broadcast_recipients SET state = 'failed', error = $2, sent_at = now()"
         " WHERE broadcast_id = $1 AND state = 'sending'"},
        // The counts from the recipients themselves, at each batch's start and at the end:
        // exact again whatever a stopped worker had not added yet.
        {"broadcast_recount",
         "UPDATE broadcasts b SET delivered = c.delivered, blocked = c.blocked, failed = c.failed"
         " FROM (SELECT count(*) FILTER (WHERE state = 'delivered') AS delivered,"
         "              count(*) FILTER (WHERE state = 'blocked') AS blocked,"
         "              count(*) FILTER (WHERE state = 'failed') AS failed"
         "       FROM broadcast_recipients WHERE broadcast_id = $1) c WHERE b.id = $1"},
        // The outcomes recorded since the last time, added twice a second: one row updated a
        // thousand times while the job's transaction is open would be a chain of a thousand
        // versions that nothing can prune until it ends.
        {"broadcast_add_counts",
         "UPDATE broadcasts SET delivered = delivered + $2, blocked = blocked + $3, failed = failed + $4 WHERE id = $1"},
        // The next recipients still to do (one broadcast sends at a time: nothing else takes them).
        {"broadcast_next",
         "SELECT user_id, telegram_id FROM broadcast_recipients WHERE broadcast_id = $1 AND state = 'pending'"
         " ORDER BY user_id LIMIT $2"},
        // One recipient marked, committed before its Bot API call: from here on it is never sent again.
        {"broadcast_mark",
         "UPDATE broadcast_recipients SET state = 'sending' WHERE broadcast_id = $1 AND user_id = $2 AND state = 'pending'"},
        // One outcome and (blocked) the customer's mark, in one statement.
        {"broadcast_record",
         "WITH r AS (UPDATE broadcast_recipients SET state = $3, error = $4, sent_at = now()"
         "           WHERE broadcast_id = $1 AND user_id = $2 AND state = 'sending' RETURNING state),"
         " u AS (UPDATE users SET bot_blocked_at = now() FROM r"
         "       WHERE users.id = $2 AND r.state = 'blocked' AND users.bot_blocked_at IS NULL)"
         " SELECT count(*) FROM r"},
        // The customer wrote to the bot: they have it unblocked (again).
        {"broadcast_bot_reachable",
         "UPDATE users SET bot_blocked_at = NULL WHERE telegram_id = $1 AND bot_blocked_at IS NOT NULL"},
        {"broadcast_finish",
         "UPDATE broadcasts SET status = 'done', finished_at = now() WHERE id = $1 AND status = 'sending'"
         " AND NOT EXISTS (SELECT 1 FROM broadcast_recipients WHERE broadcast_id = $1 AND state IN ('pending', 'sending'))"},
    };
}

}  // namespace cabinet
