// How the bench users look (docs/decisions.md "A million bench users"): user k (Telegram id
// 900000000 + k) is, by k alone, so a repeat or a larger N agrees with an earlier run:
//   - a subscription: 'trial' when k % 20 = 7, 'expired' (1..60 days ago) when k % 10 = 3,
//     else 'active' (1..29 days left: its last monthly purchase, 30 days before the expiry,
//     must lie in the past); a panel user uuid derived from the Telegram id, which
//     the mock panel's snapshot gets too (bench_panel_state.cpp);
//   - 20 completed transactions over the last ~10 months: 10 top-ups of 400.00 (YooKassa,
//     CryptoBot, Stars) each an hour before one of 10 monthly 30-day purchases of the
//     standard plan (from the balance; the 4th and 8th paid in Stars); a trial user has the
//     10 top-ups and its trial activation instead;
//   - every 5th user (k = 5m) was invited by bench user m / 10 (so inviters have 10 each),
//     whose commission (10 %) on the first purchase is a referral_reward transaction, a
//     referral_earnings row and a ledger row;
//   - the ledger of every balance move, then an 'admin' row bringing the balance to
//     10,000,000.00 for the purchase mix; the subscription history of each purchase (a chain,
//     each row starting where the previous one ended); the registration event.
#include "seed_bench.hpp"

#include <stdexcept>

#include "bulk_load.hpp"

namespace cabinet::ctl {
namespace {

constexpr int64_t kTelegramBase = 900000000;
constexpr int64_t kBalance = 1000000000;  // minor units, enough for any benchmark run
constexpr int64_t kTopUp = 40000;
constexpr int64_t kCommission = 2990;     // 10 % of the 30-day standard price in the demo plans
constexpr int64_t kIdsPerUser = 30;       // transaction ids reserved per user: 20 own + 10 commissions
// Below this many new users the indexes and constraints stay in place while inserting.
constexpr int64_t kBulkThreshold = 20000;

// Per new bench user: id, k, its class and the time of its first purchase (p1).
constexpr const char* kInsertUsers =
    "WITH spec AS ("
    "  SELECT i AS k, CASE WHEN i % 20 = 7 THEN 'trial' WHEN i % 10 = 3 THEN 'expired' ELSE 'active' END AS cls"
    "  FROM generate_series(1, $1::bigint) i"
    "), timed AS ("
    "  SELECT k, cls, now() - interval '285 days' + make_interval(days => CASE cls"
    "      WHEN 'expired' THEN -16 - (k * 37 % 60)::int WHEN 'active' THEN (k * 37 % 29)::int - 14 ELSE 0 END) AS p1"
    "  FROM spec"
    "), ins AS ("
    "  INSERT INTO users (telegram_id, username, first_name, language, referral_code, balance_minor, trial_used,"
    "                     created_at, updated_at)"
    "  SELECT $2::bigint + k, 'bench' || k, 'Bench ' || k, CASE WHEN k % 3 = 0 THEN 'ru' ELSE 'en' END, 'BENCH' || k,"
    "         $3::bigint, true, p1 - interval '1 day', now()"
    "  FROM timed ORDER BY k"
    "  ON CONFLICT (telegram_id) DO NOTHING"
    "  RETURNING id, telegram_id - $2::bigint AS k"
    ") INSERT INTO bench_new (id, k, cls, p1) SELECT ins.id, ins.k, t.cls, t.p1 FROM ins JOIN timed t USING (k)";

constexpr const char* kReferredBy =
    "UPDATE users u SET referred_by = r.id FROM bench_new n JOIN users r ON r.telegram_id = $1::bigint + n.k / 50"
    " WHERE u.id = n.id AND n.k % 5 = 0 AND n.k >= 50";

constexpr const char* kSubscriptions =
    "INSERT INTO subscriptions (user_id, status, is_trial, plan_id, plan_snapshot, start_at, expire_at, device_limit,"
    "  traffic_used_bytes, panel_uuid, short_uuid, subscription_url, autopay_enabled, created_at, updated_at)"
    " SELECT n.id, n.cls, n.cls = 'trial', $1::bigint, jsonb_build_object('name', 'Standard'),"
    "  CASE WHEN n.cls = 'trial' THEN now() - interval '1 day' ELSE n.p1 END,"
    "  CASE WHEN n.cls = 'trial' THEN now() + interval '2 days' ELSE n.p1 + interval '300 days' END, 3,"
    "  (n.k * 7919 % 50) * 1073741824::bigint,"
    "  ('00000000-0000-4000-8000-' || lpad(to_hex($3::bigint + n.k), 12, '0'))::uuid,"
    "  'bench' || n.k, $2::text || '/sub/bench' || n.k, n.cls = 'active' AND n.k % 4 = 0,"
    "  CASE WHEN n.cls = 'trial' THEN now() - interval '1 day' ELSE n.p1 END, now()"
    " FROM bench_new n ON CONFLICT (user_id) DO NOTHING";

// Slot s = 1..20 of user k has transaction id $1 + (k - $2) * 30 + s - 1; odd slots are
// top-ups, even ones purchases (for a trial user only slot 20, its trial).
constexpr const char* kTransactions =
    "INSERT INTO transactions (id, user_id, type, status, amount_minor, currency, method, plan_snapshot, description,"
    "  provider, provider_payment_id, created_at, completed_at, paid_at)"
    " SELECT x.id, x.user_id, x.type, 'completed', x.amount, 'RUB', x.method,"
    "  CASE WHEN x.type = 'subscription_payment' THEN"
    "    jsonb_build_object('plan_id', $3::bigint, 'name', 'Standard', 'days', CASE WHEN x.method = 'trial' THEN 3 ELSE 30 END) END,"
    "  CASE WHEN x.type = 'deposit' THEN 'balance top-up' WHEN x.method = 'trial' THEN 'trial'"
    "       ELSE 'Standard, 30 days' END,"
    "  CASE WHEN x.method IN ('yookassa', 'cryptobot', 'stars') THEN x.method END,"
    "  CASE WHEN x.method IN ('yookassa', 'cryptobot', 'stars') THEN 'bench-' || x.id END,"
    "  x.at, x.at, CASE WHEN x.method IN ('yookassa', 'cryptobot', 'stars') THEN x.at END"
    " FROM ("
    "  SELECT $1::bigint + (n.k - $2::bigint) * 30 + s - 1 AS id, n.id AS user_id,"
    "    CASE WHEN s % 2 = 1 THEN 'deposit' ELSE 'subscription_payment' END AS type,"
    "    CASE WHEN s % 2 = 1 THEN $5::bigint WHEN n.cls = 'trial' THEN 0 ELSE $4::bigint END AS amount,"
    "    CASE WHEN s % 2 = 1 THEN (ARRAY['yookassa', 'cryptobot', 'stars'])[1 + (n.k + s) % 3]"
    "         WHEN n.cls = 'trial' THEN 'trial' WHEN s IN (8, 16) THEN 'stars' ELSE 'balance' END AS method,"
    "    CASE WHEN n.cls = 'trial' AND s = 20 THEN now() - interval '1 day'"
    "         ELSE n.p1 + make_interval(days => 30 * ((s - 1) / 2)) - CASE WHEN s % 2 = 1 THEN interval '1 hour'"
    "              ELSE interval '0' END END AS at"
    "  FROM bench_new n CROSS JOIN generate_series(1, 20) s"
    "  WHERE n.cls <> 'trial' OR s % 2 = 1 OR s = 20"
    " ) x";  // explicit ids: no sort needed

// The inviter's commission on an invited user's first purchase (slot 2), in the inviter's
// slots 21..30; only when both are new in this run, so earlier ledgers are never touched.
constexpr const char* kReferralRewards =
    "INSERT INTO transactions (id, user_id, type, status, amount_minor, currency, method, description, created_at,"
    "  completed_at)"
    " SELECT $1::bigint + (r.k - $2::bigint) * 30 + 20 + (n.k / 5) % 10, r.id, 'referral_reward', 'completed',"
    "  $3::bigint, 'RUB', 'referral', 'referral commission', n.p1 + interval '1 second', n.p1 + interval '1 second'"
    " FROM bench_new n JOIN bench_new r ON r.k = n.k / 50"
    " WHERE n.k % 5 = 0 AND n.cls <> 'trial' ORDER BY 1";

constexpr const char* kReferralEarnings =
    "INSERT INTO referral_earnings (referrer_id, referral_id, transaction_id, amount_minor, created_at)"
    " SELECT r.id, n.id, $1::bigint + (n.k - $2::bigint) * 30 + 1, $3::bigint, n.p1 + interval '1 second'"
    " FROM bench_new n JOIN bench_new r ON r.k = n.k / 50"
    " WHERE n.k % 5 = 0 AND n.cls <> 'trial' ORDER BY n.id";

// Every balance move of the new transactions, in time order per user, then the row that
// brings each new user to the seeded balance.
constexpr const char* kLedger =
    "INSERT INTO balance_ledger (user_id, delta_minor, balance_after, reason, transaction_id, created_at)"
    " SELECT user_id, delta, sum(delta) OVER (PARTITION BY user_id ORDER BY created_at, id), reason, id, created_at"
    " FROM ("
    "  SELECT id, user_id, created_at,"
    "    CASE WHEN type = 'subscription_payment' THEN -amount_minor ELSE amount_minor END AS delta,"
    "    CASE type WHEN 'deposit' THEN 'deposit' WHEN 'subscription_payment' THEN 'purchase'"
    "              ELSE 'referral_commission' END AS reason"
    "  FROM transactions WHERE id BETWEEN $1::bigint AND $2::bigint AND amount_minor > 0"
    "   AND (type <> 'subscription_payment' OR method = 'balance')"
    " ) moves ORDER BY user_id, created_at, id";

constexpr const char* kLedgerTopUp =
    "INSERT INTO balance_ledger (user_id, delta_minor, balance_after, reason, note)"
    " SELECT n.id, $1::bigint - coalesce(l.total, 0), $1::bigint, 'admin', 'bench data'"
    " FROM bench_new n LEFT JOIN (SELECT user_id, sum(delta_minor) AS total FROM balance_ledger"
    "   WHERE user_id IN (SELECT id FROM bench_new) GROUP BY user_id) l ON l.user_id = n.id"
    " ORDER BY n.id";

// Purchase c (1..10) is slot 2c; the Stars ones (slots 8, 16) were fulfilled by the worker.
constexpr const char* kHistory =
    "INSERT INTO subscription_history (user_id, source, transaction_id, days, expire_before, expire_after, created_at)"
    " SELECT * FROM ("
    "  SELECT n.id, CASE WHEN c IN (4, 8) THEN 'fulfil' ELSE 'purchase' END, $1::bigint + (n.k - $2::bigint) * 30 + 2 * c - 1,"
    "    30, CASE WHEN c > 1 THEN n.p1 + make_interval(days => 30 * (c - 1)) END,"
    "    n.p1 + make_interval(days => 30 * c), n.p1 + make_interval(days => 30 * (c - 1))"
    "  FROM bench_new n CROSS JOIN generate_series(1, 10) c WHERE n.cls <> 'trial'"
    "  UNION ALL"
    "  SELECT n.id, 'trial', $1::bigint + (n.k - $2::bigint) * 30 + 19, 3, NULL, now() + interval '2 days',"
    "    now() - interval '1 day'"
    "  FROM bench_new n WHERE n.cls = 'trial'"
    " ) h ORDER BY 1, 7";

constexpr const char* kEvents =
    "INSERT INTO events (user_id, kind, payload, created_at)"
    " SELECT n.id, 'registration', jsonb_build_object('source', 'bench', 'telegram_id', $1::bigint + n.k,"
    "  'referred_by', u.referred_by), n.p1 - interval '1 day'"
    " FROM bench_new n JOIN users u ON u.id = n.id ORDER BY n.id";

// What the ledger guard would have checked at commit for each new user, and more: the
// balance is the ledger's sum and its newest row's balance_after.
constexpr const char* kCheckNewLedgers =
    "SELECT count(*) FROM bench_new n JOIN users u ON u.id = n.id"
    " LEFT JOIN (SELECT user_id, sum(delta_minor) AS total, max(id) AS last_id FROM balance_ledger"
    "   WHERE user_id IN (SELECT id FROM bench_new) GROUP BY user_id) l ON l.user_id = n.id"
    " LEFT JOIN balance_ledger b ON b.id = l.last_id"
    " WHERE u.balance_minor <> coalesce(l.total, 0) OR u.balance_minor <> coalesce(b.balance_after, 0)";

// The trigger's work for the new users, set-based (sql 0047's own backfill, for them): each
// trial converted by the first paid grant after it, and the trials counted in the rollup.
constexpr const char* kConvertNewTrials =
    "UPDATE subscription_history h SET converted_at = ("
    "  SELECT min(p.created_at) FROM subscription_history p"
    "  WHERE p.user_id = h.user_id AND p.id > h.id AND p.source IN ('purchase', 'fulfil', 'autopay'))"
    " WHERE h.source = 'trial' AND h.user_id IN (SELECT id FROM bench_new)";
constexpr const char* kCountNewTrials =
    "INSERT INTO overview_trials (bucket, trials, converted)"
    " SELECT overview_quarter(created_at), count(*), count(converted_at) FROM subscription_history"
    " WHERE source = 'trial' AND user_id IN (SELECT id FROM bench_new) GROUP BY 1";
// The payments' totals (sql 0053) for the new users' transactions, likewise.
constexpr const char* kCountNewPayments =
    "INSERT INTO payment_totals"
    " SELECT payment_hour(created_at), status, method, type, currency, count(*), sum(amount_minor)"
    " FROM transactions WHERE user_id IN (SELECT id FROM bench_new) GROUP BY 1, 2, 3, 4, 5";

void add_history(pqxx::work& txn, const std::string& panel_base_url) {
    const auto range = txn.exec1("SELECT count(*), coalesce(min(k), 0), coalesce(max(k), 0) FROM bench_new");
    const int64_t added = range[0].as<int64_t>(), kmin = range[1].as<int64_t>(), kmax = range[2].as<int64_t>();
    if (added == 0) return;
    const auto plan = txn.exec1(
        "SELECT p.id, d.price_minor FROM plans p JOIN plan_durations d ON d.plan_id = p.id"
        " WHERE p.public_code = 'standard' AND d.days = 30");
    const int64_t plan_id = plan[0].as<int64_t>(), price = plan[1].as<int64_t>();

    txn.exec_params0(kReferredBy, kTelegramBase);
    txn.exec_params0(kSubscriptions, plan_id, panel_base_url, kTelegramBase);

    // A block of transaction ids for this run; the EXCLUSIVE lock keeps every other writer
    // of transactions (and so of its sequence) out until the commit.
    txn.exec0("LOCK TABLE transactions IN EXCLUSIVE MODE");
    const int64_t span = (kmax - kmin + 1) * kIdsPerUser;
    const int64_t first = txn.exec1("SELECT nextval('transactions_id_seq')")[0].as<int64_t>();
    txn.exec_params("SELECT setval('transactions_id_seq', $1::bigint)", first + span - 1);

    txn.exec_params0(kTransactions, first, kmin, plan_id, price, kTopUp);
    txn.exec_params0(kReferralRewards, first, kmin, kCommission);
    txn.exec_params0(kReferralEarnings, first, kmin, kCommission);
    txn.exec_params0(kLedger, first, first + span - 1);
    txn.exec_params0(kLedgerTopUp, kBalance);
    txn.exec_params0(kHistory, first, kmin);
    txn.exec_params0(kEvents, kTelegramBase);
}

}  // namespace

BenchSeedResult seed_bench_users(pqxx::work& txn, int64_t count, const std::string& panel_base_url) {
    BenchSeedResult result;
    txn.exec0("SET LOCAL statement_timeout = 0");
    txn.exec0("SET LOCAL work_mem = '64MB'");
    txn.exec0("SET LOCAL maintenance_work_mem = '256MB'");
    txn.exec0("CREATE TEMP TABLE bench_new (id BIGINT PRIMARY KEY, k BIGINT NOT NULL, cls TEXT NOT NULL,"
              " p1 TIMESTAMPTZ NOT NULL) ON COMMIT DROP");
    const int64_t missing = count - txn.exec_params1("SELECT count(*) FROM users WHERE telegram_id BETWEEN"
                                                     " $1::bigint + 1 AND $1::bigint + $2::bigint",
                                                     kTelegramBase, count)[0].as<int64_t>();
    const bool bulk = missing >= kBulkThreshold;
    // The new users are inserted with their final balance; the ledger that explains it is
    // written below. For a bulk load the guard that checks this at commit, one trigger call
    // per user, is switched off for this transaction only (ALTER TABLE is transactional: a
    // failure or crash leaves it on); its check is made for all of them at once before the
    // commit instead (kCheckNewLedgers), as for a small load too.
    // Likewise the pool caches' notifying triggers (sql 0022): one notification per new row;
    // one '*' is sent here instead, at commit.
    static const char* const kNotifying[] = {"users", "subscriptions", "referral_earnings", "traffic_snapshots"};
    if (bulk) {
        txn.exec0("ALTER TABLE users DISABLE TRIGGER users_balance_ledger_insert");
        for (const char* table : kNotifying)
            txn.exec0(std::string("ALTER TABLE ") + table + " DISABLE TRIGGER " + table + "_account_changed");
        txn.exec0("NOTIFY accounts_changed, '*'");
    }
    txn.exec_params0(kInsertUsers, count, kTelegramBase, kBalance);
    txn.exec0("ANALYZE bench_new");
    result.added = txn.exec1("SELECT count(*) FROM bench_new")[0].as<int64_t>();

    if (bulk) {
        // The Overview's trial conversion trigger (sql 0047) looks up each paid grant's trial
        // before it by the history's user index, which the window below drops: a scan per
        // row, hours at a million. Off for the load, and its work done once afterwards.
        txn.exec0("ALTER TABLE subscription_history DISABLE TRIGGER subscription_history_overview_insert");
        // The payments' totals (sql 0053): a rollup row per transaction written, twenty million
        // rows more to write and compact; counted once afterwards instead.
        txn.exec0("ALTER TABLE transactions DISABLE TRIGGER transactions_totals_insert");
        txn.exec0("ALTER TABLE transactions DISABLE TRIGGER transactions_totals_update");
        BulkLoadWindow window(txn, {"transactions", "balance_ledger", "subscription_history", "referral_earnings",
                                    "events"});
        add_history(txn, panel_base_url);
        window.restore();
        txn.exec0("ALTER TABLE subscription_history ENABLE TRIGGER subscription_history_overview_insert");
        txn.exec0(kConvertNewTrials);
        txn.exec0(kCountNewTrials);
        txn.exec0("ALTER TABLE transactions ENABLE TRIGGER transactions_totals_insert");
        txn.exec0("ALTER TABLE transactions ENABLE TRIGGER transactions_totals_update");
        txn.exec0(kCountNewPayments);
    } else {
        add_history(txn, panel_base_url);
    }
    if (bulk) {
        txn.exec0("ALTER TABLE users ENABLE TRIGGER users_balance_ledger_insert");
        for (const char* table : kNotifying)
            txn.exec0(std::string("ALTER TABLE ") + table + " ENABLE TRIGGER " + table + "_account_changed");
    }
    if (const auto bad = txn.exec1(kCheckNewLedgers)[0].as<int64_t>(); bad != 0)
        throw std::runtime_error(std::to_string(bad) + " new bench users' balances do not match their ledger");

    // Bench users of earlier runs: the purchase mix spends their balance; bring it back up,
    // through the ledger like any balance change.
    result.topped_up = txn.exec_params(
        "SELECT ledger_set_balance(id, $3::bigint, 'admin', 'bench data') FROM users"
        " WHERE telegram_id BETWEEN $1::bigint + 1 AND $1::bigint + $2::bigint AND balance_minor < $3::bigint",
        kTelegramBase, count, kBalance).size();
    return result;
}

}  // namespace cabinet::ctl
