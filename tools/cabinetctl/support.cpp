// cabinetctl support list [--status S] | show ID | reply ID TEXT | close ID: support's side
// of the support chat from a shell. The writes are services/support.hpp's, the same the
// bot's reply to a ticket notification uses.
#include <iostream>

#include "commands.hpp"
#include "db/db.hpp"
#include "services/support.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::ctl {
namespace {

constexpr const char* kSupportUsage = "usage: cabinetctl support list [--status open|waiting|closed] [--limit N] | show ID | reply ID TEXT | close ID";

std::string who(const SupportTicket& t) {
    std::string out = "user " + std::to_string(t.user_id);
    if (t.telegram_id) out += " tg " + std::to_string(*t.telegram_id);
    if (!t.username.empty()) out += " @" + t.username;
    if (!t.email.empty()) out += " " + t.email;
    return out;
}

int64_t ticket_id_arg(const Args& args) {
    int64_t id = 0;
    if (args.size() < 2 || !parse_int64(args[1], id) || id <= 0) throw std::runtime_error(kSupportUsage);
    return id;
}

}  // namespace

int support(const Args& args) {
    const std::string action = args.empty() ? "" : args[0];
    if (action != "list" && action != "show" && action != "reply" && action != "close") {
        std::cerr << kSupportUsage << "\n";
        return 2;
    }
    const Settings s = load_or_die();
    Db db(s.database_url, s.db_connect_timeout_s, s.db_statement_timeout_ms);
    if (action == "list") {
        const std::string status = option(args, "--status");
        if (!status.empty() && status != "open" && status != "waiting" && status != "closed") {
            std::cerr << "--status must be open, waiting or closed\n";
            return 2;
        }
        int64_t limit = 50;
        if (flag(args, "--limit") && (!parse_int64(option(args, "--limit"), limit) || limit < 1 || limit > 10000)) {
            std::cerr << "--limit must be 1..10000\n";
            return 2;
        }
        const auto tickets = db.read([&](auto& txn) { return list_tickets(txn, status, limit); });
        for (const auto& t : tickets)
            std::cout << "#" << t.id << "  " << t.status << "  " << iso8601_utc(t.updated_at) << "  " << t.message_count
                      << " message(s)  " << who(t) << "\n";
        if (tickets.empty()) std::cout << "no tickets\n";
        return 0;
    }
    const int64_t id = ticket_id_arg(args);
    if (action == "show") {
        const auto t = db.read([&](auto& txn) { return ticket_with_messages(txn, id); });
        if (!t) {
            std::cerr << "no ticket #" << id << "\n";
            return 1;
        }
        std::cout << "ticket #" << t->id << " (" << t->status << "), " << who(*t) << ", opened "
                  << iso8601_utc(t->created_at) << "\n";
        for (const auto& m : t->messages) std::cout << "\n[" << iso8601_utc(m.at) << "] " << m.author << ":\n" << m.text << "\n";
        return 0;
    }
    if (action == "reply") {
        if (args.size() != 3 || !valid_support_text(args[2])) {
            std::cerr << "usage: cabinetctl support reply ID TEXT (TEXT: 1..4096 characters, quoted)\n";
            return 2;
        }
        const ReplyOutcome o = db.write([&](pqxx::work& txn) { return reply_to_ticket(txn, id, args[2], "cabinetctl"); });
        if (o == ReplyOutcome::not_found) std::cerr << "no ticket #" << id << "\n";
        if (o == ReplyOutcome::closed) std::cerr << "ticket #" << id << " is closed; the user's next message opens a new one\n";
        if (o != ReplyOutcome::replied) return 1;
        std::cout << "replied to ticket #" << id << "; status waiting; the bot sends it to the user's Telegram chat, if they have one\n";
        return 0;
    }
    if (!db.write([&](pqxx::work& txn) { return close_ticket(txn, id, "cabinetctl"); })) {
        std::cerr << "no ticket #" << id << "\n";
        return 1;
    }
    std::cout << "ticket #" << id << " closed\n";
    return 0;
}

}  // namespace cabinet::ctl
