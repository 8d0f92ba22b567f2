#include "bot/support_reply.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "services/reports.hpp"
#include "services/support.hpp"

namespace cabinet::bot {
namespace {

struct Answered {
    ReplyOutcome outcome = ReplyOutcome::not_found;
    int64_t ticket_id = 0;
    std::optional<int64_t> user_telegram_id;
};

}  // namespace

bool is_reporting_group_reply(const Settings& s, const ChatMessage& m) {
    return !m.is_private && m.reply_to_message_id && !s.report_chat_id.empty() && std::to_string(m.chat_id) == s.report_chat_id;
}

void answer_ticket_from_group(Exchange& ex, BotApi& api, const ChatMessage& m) {
    const Settings& s = ex.settings();
    if (!s.is_admin(m.from.id)) return;
    const std::string group = s.report_chat_id;
    const std::string& topic = report_topic_id(s, ReportTopic::tickets);
    if (!valid_support_text(m.text)) {
        api.send_message(group, topic, "A ticket answer must be text of 1 to 4096 characters.");
        return;
    }
    const Answered a = ex.io.db.write([&](pqxx::work& txn) {
        Answered out;
        const auto ticket = ticket_by_notification(txn, *m.reply_to_message_id);
        if (!ticket) return out;  // a reply to some other message of the group
        out.ticket_id = *ticket;
        out.outcome = reply_to_ticket(txn, *ticket, m.text);
        if (out.outcome == ReplyOutcome::replied) {
            if (const auto t = ticket_with_messages(txn, *ticket)) out.user_telegram_id = t->telegram_id;
        }
        return out;
    });
    if (a.ticket_id == 0) return;
    const std::string ticket = "#" + std::to_string(a.ticket_id);
    try {
        if (a.outcome == ReplyOutcome::closed) {
            api.send_message(group, topic, "Ticket " + ticket + " is closed; the answer was not stored.");
            return;
        }
        if (a.user_telegram_id)
            api.send_message(std::to_string(*a.user_telegram_id), "", "Support (ticket " + ticket + "):\n" + m.text);
        api.send_message(group, topic, "Answer stored in ticket " + ticket + (a.user_telegram_id ? " and sent to the user." : "."));
    } catch (const std::exception& e) {
        spdlog::warn("ticket {} answered, but a Telegram notice failed: {}", a.ticket_id, e.what());
    }
}

}  // namespace cabinet::bot
