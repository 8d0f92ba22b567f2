// cabinetctl check-ledger [--alert]: money invariants over the whole database (issue 12).
//   Every user's balance equals the sum of their ledger and the newest row's balance_after;
//   each ledger row continues the previous one; every completed balance payment, promo
//   credit and referral commission since the ledger started has exactly its ledger row.
//   Exit 1 when anything is off; --alert also queues the findings for the alerts topic
//   (the same findings once a day). cabinet-backup.service runs it with --alert after the
//   backup step, every 15 minutes.
// cabinetctl repair-days [--apply] [--telegram-id N]: accounts whose expiry is below what
//   their paid purchases add up to (domain/expiry_replay.hpp): the paid days lost by the
//   pre-fix race. Reports by default; --apply adds the missing days, panel first, under the
//   user's lock, rechecked there, and records a `days_repaired` event. A second run finds
//   nothing more to do.
#include <pqxx/pqxx>
#include <spdlog/spdlog.h>

#include <iostream>
#include <functional>
#include <sstream>

#include "commands.hpp"
#include "db/db.hpp"
#include "domain/expiry_replay.hpp"
#include "log/logging.hpp"
#include "panel/panel_client.hpp"
#include "services/panel_restore.hpp"
#include "services/reports.hpp"
#include "services/subscription_grant.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

// Each check is one query whose rows are findings, and how to say one.
struct LedgerCheck {
    const char* sql;
    std::string (*describe)(const pqxx::row&);
};

std::string user_label(const pqxx::row& r) {
    std::string s = "user " + std::string(r["user_id"].c_str());
    if (!r["telegram_id"].is_null()) s += " (telegram " + std::string(r["telegram_id"].c_str()) + ")";
    return s;
}

const LedgerCheck kChecks[] = {
    {"SELECT u.id AS user_id, u.telegram_id, u.balance_minor, coalesce(l.total, 0) AS total,"
     "  coalesce(l.last_after, 0) AS last_after"
     " FROM users u LEFT JOIN ("
     "   SELECT DISTINCT ON (user_id) user_id, sum(delta_minor) OVER (PARTITION BY user_id) AS total,"
     "     balance_after AS last_after"
     "   FROM balance_ledger WHERE user_id IS NOT NULL ORDER BY user_id, id DESC"
     " ) l ON l.user_id = u.id"
     " WHERE u.balance_minor <> coalesce(l.total, 0) OR u.balance_minor <> coalesce(l.last_after, 0)"
     " ORDER BY u.id LIMIT 1000",
     [](const pqxx::row& r) {
         return user_label(r) + ": balance " + r["balance_minor"].c_str() + " but the ledger sums to " +
                r["total"].c_str() + " and ends at " + r["last_after"].c_str();
     }},
    {"SELECT x.user_id, u.telegram_id, x.id, x.prev, x.delta_minor, x.balance_after FROM ("
     "   SELECT user_id, id, delta_minor, balance_after,"
     "     lag(balance_after, 1, 0::bigint) OVER (PARTITION BY user_id ORDER BY id) AS prev"
     "   FROM balance_ledger WHERE user_id IS NOT NULL"
     " ) x JOIN users u ON u.id = x.user_id"
     " WHERE x.balance_after <> x.prev + x.delta_minor ORDER BY x.user_id, x.id LIMIT 1000",
     [](const pqxx::row& r) {
         return user_label(r) + ": ledger row " + r["id"].c_str() + " goes from " + r["prev"].c_str() + " by " +
                r["delta_minor"].c_str() + " to " + r["balance_after"].c_str();
     }},
    // What each kind of completed history entry must have moved, since the ledger started.
    {"SELECT t.user_id, u.telegram_id, t.id, t.type, t.method, t.expected, count(l.id) AS rows,"
     "  coalesce(sum(l.delta_minor), 0) AS moved"
     " FROM (SELECT id, user_id, type, method, CASE WHEN type = 'subscription_payment' THEN -amount_minor"
     "         ELSE amount_minor END AS expected"
     "       FROM transactions"
     "       WHERE status = 'completed' AND amount_minor > 0 AND created_at >= (SELECT started_at FROM ledger_meta)"
     "         AND ((type = 'subscription_payment' AND method = 'balance') OR type = 'referral_reward'"
     "              OR (type = 'gift' AND method = 'promo'))) t"
     " LEFT JOIN users u ON u.id = t.user_id"
     " LEFT JOIN balance_ledger l ON l.transaction_id = t.id"
     " GROUP BY t.user_id, u.telegram_id, t.id, t.type, t.method, t.expected"
     " HAVING count(l.id) <> 1 OR coalesce(sum(l.delta_minor), 0) <> t.expected"
     " ORDER BY t.id LIMIT 1000",
     [](const pqxx::row& r) {
         return user_label(r) + ": transaction " + r["id"].c_str() + " (" + r["type"].c_str() + ", " +
                r["method"].c_str() + ") should move " + r["expected"].c_str() + " but has " + r["rows"].c_str() +
                " ledger row(s) moving " + r["moved"].c_str();
     }},
};

}  // namespace

int check_ledger(const Args& args) {
    const Settings s = load_or_die();
    setup_logging(s.log_level, "cabinet-ledger", s.log_format);
    const bool alert = flag(args, "--alert");
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    std::vector<std::string> findings;
    // One snapshot for all checks, so a purchase committing meanwhile cannot look half-done.
    {
        pqxx::connection& c = db.conn();
        pqxx::transaction<pqxx::isolation_level::repeatable_read, pqxx::readwrite_policy::read_only> txn(c);
        txn.exec("SET LOCAL statement_timeout = 0");
        for (const LedgerCheck& check : kChecks)
            for (const auto& r : txn.exec(check.sql)) findings.push_back(check.describe(r));
        txn.commit();
    }
    // The Overview shows the last verdict (sql 0052).
    db.write([&](pqxx::work& txn) {
        txn.exec_params0("INSERT INTO ledger_check_runs (id, checked_at, problems, first_problem) VALUES (1, now(), $1, $2)"
                         " ON CONFLICT (id) DO UPDATE SET checked_at = now(), problems = $1, first_problem = $2",
                         static_cast<int64_t>(findings.size()), findings.empty() ? std::string() : findings.front());
    });
    if (findings.empty()) {
        std::cout << "ledger ok: every balance equals its ledger\n";
        return 0;
    }
    for (const auto& f : findings) std::cout << f << "\n";
    std::cout << findings.size() << " ledger problem(s)\n";
    spdlog::error("ledger check: {} problem(s), first: {}", findings.size(), findings.front());
    if (alert) {
        std::ostringstream text;
        text << "Ledger check found " << findings.size() << " problem(s) (cabinetctl check-ledger):";
        for (size_t i = 0; i < findings.size() && i < 10; ++i) text << "\n- " << findings[i];
        if (findings.size() > 10) text << "\n…";
        // The timer runs this every 15 minutes: the same findings alert once a day, not 96 times.
        const std::string key = "ledger-alert:" + iso8601_utc(unix_now()).substr(0, 10) + ":" +
                                std::to_string(std::hash<std::string>{}(text.str()));
        const bool queued = db.write([&](pqxx::work& txn) {
            return enqueue_report(txn, s, ReportTopic::alerts, text.str(), {}, key);
        });
        if (!queued) spdlog::warn("ledger check: the alerts topic is not configured; nothing sent");
    }
    return 1;
}

namespace {

struct Suspect {
    int64_t user_id = 0;
    std::string telegram_id;
    int64_t purchases = 0;
    int64_t expected = 0;
    int64_t actual = 0;
    int64_t days = 0;
};

// Paid purchases (completed, with days, not the trial) of one user, oldest first. Accounts
// that took part in a merge are left out: their purchases paid for two subscriptions, of
// which one was kept.
constexpr const char* kPaidGrantsSql =
    "SELECT floor(extract(epoch FROM t.completed_at))::bigint AS at, (t.plan_snapshot->>'days')::bigint AS days"
    " FROM transactions t"
    " WHERE t.user_id = $1 AND t.type = 'subscription_payment' AND t.status = 'completed'"
    "  AND t.completed_at IS NOT NULL AND t.plan_snapshot ? 'days'"
    "  AND coalesce((t.plan_snapshot->>'trial')::boolean, false) = false"
    // A payment that arrived after its discount ended went to the balance, not to days
    // (complete_payment_as_credit): its deposit row says so, as for refunds.
    "  AND NOT EXISTS (SELECT 1 FROM balance_ledger b WHERE b.transaction_id = t.id AND b.reason = 'deposit')"
    " ORDER BY t.completed_at, t.id";

std::optional<Suspect> examine(pqxx::transaction_base& txn, int64_t user_id, const std::string& telegram_id,
                               int64_t actual) {
    std::vector<PaidGrant> grants;
    for (const auto& r : txn.exec_params(kPaidGrantsSql, user_id)) grants.push_back({r[0].as<int64_t>(), r[1].as<int64_t>()});
    const int64_t expected = replay_paid_expiry(grants);
    const int64_t days = missing_days(expected, actual);
    if (days == 0) return std::nullopt;
    return Suspect{user_id, telegram_id, static_cast<int64_t>(grants.size()), expected, actual, days};
}

// Under the user's lock: still missing? Then the days go on, panel first, and an event says so.
bool repair(Db& db, PanelClient& panel, const Suspect& found) {
    return db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, found.user_id);
        const PanelRestore restore(panel, locked);
        if (!locked.subscription || locked.subscription->status == SubscriptionStatus::disabled) return false;
        const auto again = examine(txn, found.user_id, found.telegram_id, locked.subscription->expire_at);
        if (!again) return false;  // repaired meanwhile
        GrantSpec spec;
        spec.days = again->days;
        spec.keep_current_plan = true;
        spec.source = "repair";
        const Subscription next = grant_subscription(txn, panel, locked, spec);
        txn.exec_params0(
            "INSERT INTO events (user_id, kind, payload) VALUES ($1, 'days_repaired', jsonb_build_object("
            " 'days', $2::bigint, 'paid_purchases', $3::bigint, 'expected_expire_at', to_timestamp($4),"
            " 'expire_at_before', to_timestamp($5), 'expire_at_after', to_timestamp($6)))",
            found.user_id, again->days, again->purchases, again->expected, again->actual, next.expire_at);
        return true;
    });
}

}  // namespace

int repair_days(const Args& args) {
    const Settings s = load_or_die();
    setup_logging(s.log_level, "cabinet-repair", s.log_format);
    const bool apply = flag(args, "--apply");
    int64_t only_tg = 0;
    if (!option(args, "--telegram-id").empty() && (!parse_int64(option(args, "--telegram-id"), only_tg) || only_tg <= 0))
        throw std::runtime_error("--telegram-id must be a Telegram user id");
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);

    std::vector<Suspect> found;
    int64_t after = 0, examined = 0;
    while (true) {
        const pqxx::result batch = db.read([&](pqxx::transaction_base& txn) {
            return txn.exec_params(
                "SELECT s.user_id, coalesce(u.telegram_id::text, '') AS tg,"
                "  floor(extract(epoch FROM s.expire_at))::bigint AS expire_at"
                " FROM subscriptions s JOIN users u ON u.id = s.user_id"
                " WHERE s.user_id > $1 AND s.status <> 'disabled' AND ($2::bigint = 0 OR u.telegram_id = $2::bigint)"
                "  AND NOT EXISTS (SELECT 1 FROM events e WHERE e.user_id = s.user_id AND e.kind = 'account_merged')"
                " ORDER BY s.user_id LIMIT 500",
                after, only_tg);
        });
        if (batch.empty()) break;
        for (const auto& r : batch) {
            after = r[0].as<int64_t>();
            ++examined;
            const auto suspect = db.read([&](pqxx::transaction_base& txn) {
                return examine(txn, after, r[1].c_str(), r[2].as<int64_t>());
            });
            if (suspect) found.push_back(*suspect);
        }
    }

    int64_t repaired = 0;
    for (const Suspect& f : found) {
        std::cout << "user " << f.user_id << (f.telegram_id.empty() ? "" : " (telegram " + f.telegram_id + ")") << ": "
                  << f.purchases << " paid purchase(s) add up to " << iso8601_utc(f.expected) << ", expires "
                  << iso8601_utc(f.actual) << ": " << f.days << " day(s) missing";
        if (apply) {
            const bool done = repair(db, panel, f);
            repaired += done;
            std::cout << (done ? "; repaired" : "; nothing to do any more");
        }
        std::cout << "\n";
    }
    std::cout << examined << " subscription(s) examined, " << found.size() << " missing paid days";
    if (apply) std::cout << ", " << repaired << " repaired";
    else if (!found.empty()) std::cout << " (run again with --apply to add them)";
    std::cout << "\n";
    spdlog::info("repair-days: {} examined, {} with missing paid days, {} repaired", examined, found.size(), repaired);
    return 0;
}

}  // namespace cabinet::ctl
