#include "db/statements.hpp"

namespace cabinet {

// The owner's Overview (db/overview_repo.cpp). Revenue, subscriptions and trials are read
// from the rollups the triggers of sql 0047 keep (a few thousand rows at a million
// customers); what a rollup cannot know, the subscriptions ending today, is counted as it
// is. $1 is the shop's time zone (SHOP_TIMEZONE): its days begin at that zone's midnight.
std::vector<Statement> overview_statements() {
    return {
        // Money from outside (completed payments through a provider) by the shop's day: the
        // last 30 days, oldest first, today last, a day without any as 0.
        {"overview_revenue_days",
         "SELECT to_char(d, 'YYYY-MM-DD') AS day,"
         "  coalesce((SELECT sum(amount_minor) FROM overview_revenue r"
         "            WHERE r.bucket >= d AT TIME ZONE $1 AND r.bucket < (d + interval '1 day') AT TIME ZONE $1), 0)::bigint"
         "  AS amount"
         " FROM generate_series(date_trunc('day', now() AT TIME ZONE $1) - interval '29 days',"
         "                      date_trunc('day', now() AT TIME ZONE $1), interval '1 day') d"
         " ORDER BY d"},
        // Subscriptions not ended: the rollup for the days after today (UTC), the rows for
        // today; trials begun on the shop's last 30 days, and those converted.
        {"overview_counts",
         "WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day,"
         "                      ((now() AT TIME ZONE 'UTC')::date + 1)::timestamp AT TIME ZONE 'UTC' AS ends)"
         " SELECT (SELECT coalesce(sum(subscriptions), 0) FROM overview_expiries, today"
         "          WHERE kind = 'paid' AND overview_expiries.day > today.day)"
         "      + (SELECT count(*) FROM subscriptions, today WHERE status IN ('active', 'limited') AND NOT is_trial"
         "          AND expire_at > now() AND expire_at < today.ends) AS active,"
         "   (SELECT coalesce(sum(subscriptions), 0) FROM overview_expiries, today"
         "     WHERE kind = 'trial' AND overview_expiries.day > today.day)"
         "      + (SELECT count(*) FROM subscriptions, today WHERE status = 'trial' AND expire_at > now()"
         "          AND expire_at < today.ends) AS trial,"
         "   (SELECT count(*) FROM users WHERE created_at > now() - interval '24 hours') AS new_customers,"
         "   t.trials, t.converted"
         " FROM (SELECT coalesce(sum(trials), 0) AS trials, coalesce(sum(converted), 0) AS converted FROM overview_trials"
         "       WHERE bucket >= (date_trunc('day', now() AT TIME ZONE $1) - interval '29 days') AT TIME ZONE $1) t"},
        {"overview_compact", "SELECT overview_compact()"},
        // A shop's day as Unix seconds (the owner's lists' date filters): $1 a date, $2 days
        // on, $3 the zone.
        {"shop_day_start",
         "SELECT floor(extract(epoch FROM (($1::date + $2::int)::timestamp AT TIME ZONE $3)))::bigint"},
        {"overview_ledger_check",
         "SELECT floor(extract(epoch FROM checked_at))::bigint AS checked_at, problems, first_problem"
         " FROM ledger_check_runs WHERE id = 1"},
        {"overview_backup_job",
         "SELECT status, coalesce(last_error, '') AS last_error FROM jobs WHERE kind = 'backup' ORDER BY id DESC LIMIT 1"},
    };
}

}  // namespace cabinet
