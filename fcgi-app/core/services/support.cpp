#include "services/support.hpp"

#include <stdexcept>

#include "db/audit_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "errors.hpp"
#include "services/reports.hpp"
#include "services/user_messages.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

// A notification must fit one Telegram message (4096 characters) with its header, so a
// long message is cut there; the whole text stays in the ticket.
constexpr size_t kNotifiedChars = 3500;

}  // namespace

SupportTicket ticket_from_row(const pqxx::row& r) {
    SupportTicket t;
    t.id = r["id"].as<int64_t>();
    t.user_id = r["user_id"].as<int64_t>();
    t.status = r["status"].c_str();
    t.created_at = r["created_at"].as<int64_t>();
    t.updated_at = r["updated_at"].as<int64_t>();
    if (!r["telegram_id"].is_null()) t.telegram_id = r["telegram_id"].as<int64_t>();
    t.username = r["username"].c_str();
    t.email = r["email"].c_str();
    return t;
}

namespace {

SupportMessage message_from_row(const pqxx::row& r) {
    return {r["author"].c_str(), r["text"].c_str(), r["at"].as<int64_t>()};
}

// "tg 123 @name mail@example.com": every handle support may need to find the user.
std::string user_handles(pqxx::transaction_base& txn, int64_t user_id) {
    const auto r = exec_prepared1(txn, "support_user_handles", user_id);
    std::string out = "user " + std::to_string(user_id);
    if (!r["telegram_id"].is_null()) out += ", tg " + std::string(r["telegram_id"].c_str());
    if (const std::string u = r["username"].c_str(); !u.empty()) out += " @" + u;
    if (const std::string e = r["email"].c_str(); !e.empty()) out += ", " + e;
    return out;
}

std::string notification_text(int64_t ticket_id, bool new_ticket, const std::string& who, std::string_view text) {
    std::string out = (new_ticket ? "New ticket #" : "Ticket #") + std::to_string(ticket_id) + "\nFrom: " + who + "\n\n";
    const std::string_view cut = utf8_prefix(text, kNotifiedChars);
    out += cut;
    if (cut.size() < text.size()) out += "…";
    return out;
}

// "Support (ticket #12):\n<answer>", cut to one Bot API message; the app shows it whole.
std::string answer_message_text(int64_t ticket_id, std::string_view text) {
    const std::string head = "Support (ticket #" + std::to_string(ticket_id) + "):\n";
    const std::string_view cut = utf8_prefix(text, kUserMessageMaxChars - head.size() - 1);
    return head + std::string(cut) + (cut.size() < text.size() ? "…" : "");
}

}  // namespace

bool valid_support_text(std::string_view text) {
    if (trim(text).empty() || text.find('\0') != std::string_view::npos) return false;
    return utf8_prefix(text, kSupportTextMaxChars).size() == text.size();
}

std::optional<SupportTicket> open_ticket_of_user(pqxx::transaction_base& txn, int64_t user_id) {
    const auto res = exec_prepared(txn, "support_open_ticket_of_user", user_id, kSupportMessagesShown);
    if (res.empty()) return std::nullopt;
    SupportTicket t;
    t.id = res[0]["id"].as<int64_t>();
    t.user_id = user_id;
    t.status = res[0]["status"].c_str();
    for (const auto& r : res)
        if (!r["author"].is_null()) t.messages.push_back(message_from_row(r));
    t.message_count = static_cast<int64_t>(t.messages.size());
    return t;
}

std::optional<SupportTicket> open_ticket_of_user(Db& db, int64_t user_id) {
    return db.read([&](pqxx::transaction_base& txn) { return open_ticket_of_user(txn, user_id); });
}

PostedMessage post_user_message(pqxx::transaction_base& txn, const Settings& s, int64_t user_id, std::string_view text) {
    if (!valid_support_text(text)) throw std::invalid_argument("a support message is 1..4096 characters of text");
    const auto t = exec_prepared1(txn, "support_upsert_open_ticket", user_id);
    PostedMessage out{t["id"].as<int64_t>(), t["created"].as<bool>()};
    // Every message reaches the admins' topic: a flood is cut here. The upsert above holds
    // the open ticket's row lock, so parallel posts of one user are counted one by one.
    const auto recent = exec_prepared1(txn, "support_recent_user_messages", user_id);
    if (recent["n"].as<int64_t>() >= s.support_messages_per_10_min)
        throw retry_later(429, "too many support messages; try again in a few minutes", recent["wait_s"].as<int64_t>());
    const int64_t message_id =
        exec_prepared1(txn, "support_insert_message", out.ticket_id, "user", std::string(text))[0].as<int64_t>();
    // The ref brings the notification's Telegram message id back (record_ticket_notification),
    // so an admin's reply to it finds this ticket.
    enqueue_report(txn, s, ReportTopic::tickets,
                   notification_text(out.ticket_id, out.new_ticket, user_handles(txn, user_id), text),
                   std::string(kSupportMessageRef) + std::to_string(message_id));
    return out;
}

PostedMessage post_user_message(Db& db, const Settings& s, int64_t user_id, std::string_view text) {
    return db.write([&](pqxx::work& txn) { return post_user_message(txn, s, user_id, text); });
}

ReplyOutcome reply_to_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view text,
                             std::string_view actor, const std::optional<std::string>& source_ref) {
    if (!valid_support_text(text)) throw std::invalid_argument("a support reply is 1..4096 characters of text");
    const auto res = exec_prepared(txn, "support_ticket_for_update", ticket_id);
    if (res.empty()) return ReplyOutcome::not_found;
    if (parse_state<TicketStatus>(res[0]["status"].c_str()) == TicketStatus::closed) return ReplyOutcome::closed;
    const auto stored = exec_prepared(txn, "support_insert_answer", ticket_id, std::string(text), source_ref);
    if (stored.empty()) return ReplyOutcome::already_stored;
    const int64_t message_id = stored[0][0].as<int64_t>();
    write_audit(txn, actor, "support.reply", "ticket:" + std::to_string(ticket_id),
                "{\"message_id\":" + std::to_string(message_id) + "}");
    exec_prepared0(txn, "support_set_status", ticket_id, std::string(to_text(TicketStatus::waiting)));
    // The customer's Telegram chat gets it through the worker, committed with it, whoever
    // answered (the web inbox, the admins' group, cabinetctl); the app shows it either way.
    if (!res[0]["telegram_id"].is_null())
        queue_user_message(txn, res[0]["telegram_id"].as<int64_t>(), answer_message_text(ticket_id, text),
                           std::string(kSupportMessageRef) + std::to_string(message_id));
    return ReplyOutcome::replied;
}

bool close_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view actor) {
    const auto res = exec_prepared(txn, "support_ticket_for_update", ticket_id);
    if (res.empty()) return false;
    if (std::string_view(res[0]["status"].c_str()) != "closed") {
        exec_prepared0(txn, "support_set_status", ticket_id, "closed");
        write_audit(txn, actor, "support.close", "ticket:" + std::to_string(ticket_id));
    }
    return true;
}

std::vector<SupportTicket> list_tickets(pqxx::transaction_base& txn, const std::string& status, int64_t limit) {
    std::vector<SupportTicket> out;
    for (const auto& r : exec_prepared(txn, "support_list", status, limit)) {
        SupportTicket& t = out.emplace_back(ticket_from_row(r));
        t.message_count = r["messages"].as<int64_t>();
    }
    return out;
}

std::optional<SupportTicket> ticket_of(pqxx::transaction_base& txn, int64_t ticket_id) {
    const auto res = exec_prepared(txn, "support_ticket", ticket_id);
    if (res.empty()) return std::nullopt;
    return ticket_from_row(res[0]);
}

std::optional<SupportTicket> ticket_with_messages(pqxx::transaction_base& txn, int64_t ticket_id) {
    auto found = ticket_of(txn, ticket_id);
    if (!found) return std::nullopt;
    SupportTicket& t = *found;
    for (const auto& r : exec_prepared(txn, "support_ticket_messages", ticket_id)) t.messages.push_back(message_from_row(r));
    t.message_count = static_cast<int64_t>(t.messages.size());
    return found;
}

void record_ticket_notification(pqxx::transaction_base& txn, int64_t support_message_id, const std::string& chat_id,
                                int64_t telegram_message_id) {
    exec_prepared0(txn, "support_set_notification", support_message_id, telegram_message_id, chat_id);
}

std::optional<int64_t> ticket_by_notification(pqxx::transaction_base& txn, const std::string& chat_id,
                                              int64_t telegram_message_id) {
    const auto r = exec_prepared(txn, "support_ticket_by_notification", telegram_message_id, chat_id);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<int64_t>();
}

}  // namespace cabinet
