// cabinetctl cleanup [--keep-days N]: housekeeping (cabinet-cleanup.timer, daily). Deletes
// rows nothing will read again: finished jobs older than N days (default 14; dead jobs are
// kept for the operator; a referral's bonus job is kept for good, since its key is what
// makes the bonus once per referral: services/referral_commission.hpp), and one-time secrets and counters a day after they expired (an
// expired token is refused anyway; rotated refresh tokens are kept until then so reuse is
// still detected). Each table is its own statement and its own transaction, so a big
// backlog never holds one long transaction.
#include <pqxx/pqxx>

#include <iostream>

#include "commands.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {
namespace {

struct Sweep {
    const char* what;
    const char* sql;
    bool keep_days = false;  // $1 is --keep-days
};

// New kinds of expiring rows add a line here.
const Sweep kSweeps[] = {
    {"finished jobs",
     "DELETE FROM jobs WHERE status = 'done' AND kind <> 'referral_bonus' AND finished_at < now() - make_interval(days => $1)",
     true},
    {"e-mail verification links", "DELETE FROM email_verification_tokens WHERE expires_at < now() - interval '1 day'"},
    {"password reset links", "DELETE FROM password_reset_tokens WHERE expires_at < now() - interval '1 day'"},
    {"refresh tokens", "DELETE FROM refresh_tokens WHERE expires_at < now() - interval '1 day'"},
    {"brute-force counters", "DELETE FROM auth_failures WHERE window_start < now() - interval '1 day'"},
    {"Telegram login and link codes", "DELETE FROM telegram_codes WHERE expires_at < now() - interval '1 day'"},
    {"e-mail link codes", "DELETE FROM email_link_codes WHERE expires_at < now() - interval '1 day'"},
    {"OAuth states", "DELETE FROM oauth_states WHERE expires_at < now() - interval '1 day'"},
};

}  // namespace

int cleanup(const Args& args) {
    int64_t keep_days = 14;
    if (!parse_int64(option(args, "--keep-days", "14"), keep_days) || keep_days < 1 || keep_days > 3650)
        throw std::runtime_error("--keep-days must be 1..3650");
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    for (const Sweep& sweep : kSweeps) {
        pqxx::work txn(conn);
        const auto deleted = (sweep.keep_days ? txn.exec_params(sweep.sql, static_cast<int>(keep_days)) : txn.exec(sweep.sql))
                                 .affected_rows();
        txn.commit();
        std::cout << "deleted " << deleted << " " << sweep.what << "\n";
    }
    return 0;
}

}  // namespace cabinet::ctl
