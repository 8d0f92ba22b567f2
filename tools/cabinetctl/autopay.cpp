// cabinetctl autopay: queue renewals of autopay subscriptions that expire within a day
// (cron, e.g. hourly); the worker renews them from the balance (services/autopay).
// cabinetctl expire-payments: end unpaid invoices past their time now (the worker does it
// with every heartbeat; operators and tests need not wait for one).
#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "services/autopay.hpp"
#include "services/payment_confirmation.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {

int autopay(const Args& args) {
    const Settings s = load_effective_or_die();
    int64_t window_h = 24;
    if (!parse_int64(option(args, "--within-hours", "24"), window_h) || window_h < 1 || window_h > 24)
        throw std::runtime_error("--within-hours must be 1..24");
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    const int64_t queued = db.transact([&](pqxx::work& txn) { return queue_due_autopay(txn, s, window_h * 3600); });
    std::cout << "queued " << queued << " autopay renewals\n";
    return 0;
}

int expire_payments(const Args&) {
    const Settings s = load_effective_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    int64_t total = 0, ended = 0;
    do {
        ended = expire_pending_payments(db, 500);
        total += ended;
    } while (ended > 0);
    std::cout << "expired " << total << " unpaid invoices\n";
    return 0;
}

}  // namespace cabinet::ctl
