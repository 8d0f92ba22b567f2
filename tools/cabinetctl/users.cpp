// cabinetctl user ...: operator commands on one user, found by Telegram id.
#include <pqxx/pqxx>

#include <iostream>

#include "commands.hpp"
#include "util/strings.hpp"

namespace cabinet::ctl {

int user(const Args& args) {
    if (args.empty()) throw std::runtime_error("usage: cabinetctl user show|transactions|block|unblock|set-balance|set-discount --telegram-id N [--value V]");
    const std::string action = args[0];
    int64_t tg = 0;
    if (!parse_int64(option(args, "--telegram-id"), tg) || tg <= 0) throw std::runtime_error("--telegram-id N is required");
    const Settings s = load_or_die();
    pqxx::connection conn(s.database_url);
    pqxx::work txn(conn);
    pqxx::result r;
    if (action == "show") {
        r = txn.exec_params("SELECT id, telegram_id, username, balance_minor, personal_discount_pct, is_blocked, trial_used"
                            " FROM users WHERE telegram_id = $1", tg);
        if (r.empty()) throw std::runtime_error("no such user");
        for (pqxx::row::size_type i = 0; i < r.columns(); ++i)
            std::cout << r.column_name(i) << ": " << (r[0][i].is_null() ? "null" : r[0][i].c_str()) << "\n";
        return 0;
    }
    if (action == "transactions") {
        r = txn.exec_params(
            "SELECT t.id, to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS at, t.type, t.status,"
            " t.amount_minor, t.currency, t.method, coalesce(t.provider_payment_id, '') AS provider_id, t.description"
            " FROM transactions t JOIN users u ON u.id = t.user_id WHERE u.telegram_id = $1"
            " ORDER BY t.created_at DESC, t.id DESC LIMIT 100",
            tg);
        std::cout << "id\tat\ttype\tstatus\tamount_minor\tcurrency\tmethod\tprovider_id\tdescription\n";
        for (const auto& row : r) {
            for (pqxx::row::size_type i = 0; i < row.size(); ++i) std::cout << (i ? "\t" : "") << row[i].c_str();
            std::cout << "\n";
        }
        return 0;
    }
    if (action == "block" || action == "unblock") {
        r = txn.exec_params("UPDATE users SET is_blocked = $2, updated_at = now() WHERE telegram_id = $1 RETURNING id", tg,
                            action == "block");
    } else if (action == "set-balance" || action == "set-discount") {
        int64_t v = 0;
        if (!parse_int64(option(args, "--value"), v) || v < 0) throw std::runtime_error("--value must be a non-negative integer");
        if (action == "set-discount" && v > 100) throw std::runtime_error("--value must be 0..100 for a discount");
        // A balance is set through the ledger (an 'admin' entry for the difference).
        r = txn.exec_params(action == "set-balance"
                                ? "SELECT ledger_set_balance(id, $2, 'admin', 'cabinetctl user set-balance') FROM users"
                                  " WHERE telegram_id = $1"
                                : "UPDATE users SET personal_discount_pct = $2, updated_at = now() WHERE telegram_id = $1 RETURNING id",
                            tg, v);
    } else {
        throw std::runtime_error("unknown action " + action);
    }
    if (r.empty()) throw std::runtime_error("no such user");
    txn.commit();
    std::cout << "ok\n";
    return 0;
}

}  // namespace cabinet::ctl
