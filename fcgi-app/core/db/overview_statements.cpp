#include "db/statements.hpp"

namespace cabinet {

// The owner's Overview (db/overview_repo.cpp): each a range read of an index of sql 0046.
// $1 is the shop's time zone (SHOP_TIMEZONE): days begin at its midnight.
std::vector<Statement> overview_statements() {
    return {
        // Money from outside (a completed payment through a provider) by the shop's day: the
        // last 30 days, oldest first, today last, a day without any as 0.
        {"overview_revenue_days",
         "SELECT to_char(d, 'YYYY-MM-DD') AS day, coalesce(r.amount, 0)::bigint AS amount"
         " FROM generate_series(date_trunc('day', now() AT TIME ZONE $1) - interval '29 days',"
         "                      date_trunc('day', now() AT TIME ZONE $1), interval '1 day') d"
         " LEFT JOIN (SELECT (completed_at AT TIME ZONE $1)::date AS day, sum(amount_minor) AS amount"
         "            FROM transactions WHERE status = 'completed' AND provider IS NOT NULL"
         "              AND completed_at >= (date_trunc('day', now() AT TIME ZONE $1) - interval '29 days') AT TIME ZONE $1"
         "            GROUP BY 1) r ON r.day = d::date"
         " ORDER BY d"},
        {"overview_counts",
         "SELECT (SELECT count(*) FROM subscriptions WHERE status IN ('active', 'limited') AND NOT is_trial"
         "    AND expire_at > now()) AS active,"
         " (SELECT count(*) FROM subscriptions WHERE status = 'trial' AND expire_at > now()) AS trial,"
         " (SELECT count(*) FROM users WHERE created_at > now() - interval '24 hours') AS new_customers,"
         " t.trials, t.converted"
         " FROM (SELECT count(*) AS trials, count(*) FILTER (WHERE EXISTS ("
         "         SELECT 1 FROM subscription_history p WHERE p.user_id = h.user_id AND p.id > h.id"
         "           AND p.source IN ('purchase', 'fulfil', 'autopay'))) AS converted"
         "       FROM subscription_history h WHERE h.source = 'trial' AND h.created_at > now() - interval '30 days') t"},
        {"overview_backup_job",
         "SELECT status, coalesce(last_error, '') AS last_error FROM jobs WHERE kind = 'backup' ORDER BY id DESC LIMIT 1"},
    };
}

}  // namespace cabinet
