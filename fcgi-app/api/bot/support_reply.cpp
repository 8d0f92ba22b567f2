#include "api/bot/support_reply.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "services/reports.hpp"
#include "services/support_group_reply.hpp"

namespace cabinet::bot {

bool is_reporting_group_reply(const Settings& s, const ChatMessage& m) {
    return !m.is_private && m.reply_to_message_id && !s.report_chat_id.empty() && std::to_string(m.chat_id) == s.report_chat_id;
}

void answer_ticket_from_group(Exchange& ex, BotApi& api, const ChatMessage& m) {
    const Settings& s = ex.settings();
    if (!s.is_admin(m.from.id)) return;
    const std::string group = s.report_chat_id;
    const std::string& topic = report_topic_id(s, ReportTopic::tickets);
    const GroupReplyOutcome a = answer_ticket_in_group(
        ex.io.db, {m.chat_id, *m.reply_to_message_id, m.message_id, m.from.id, m.text});
    if (a.ticket_id == 0 || a.outcome == ReplyOutcome::already_stored) return;
    const std::string ticket = "#" + std::to_string(a.ticket_id);
    // Best effort: a failed notice must not make Telegram resend the update.
    const auto notice = [&](const std::string& chat, const std::string& thread, const std::string& text) {
        try {
            api.send_message(chat, thread, text);
        } catch (const std::exception& e) {
            spdlog::warn("ticket {}: a Telegram notice failed: {}", a.ticket_id, e.what());
        }
    };
    if (a.not_text) {
        notice(group, topic, "A ticket answer must be text of 1 to 4096 characters.");
        return;
    }
    if (a.outcome == ReplyOutcome::closed) {
        notice(group, topic, "Ticket " + ticket + " is closed; the answer was not stored.");
        return;
    }
    // reply_to_ticket queued the customer's copy (a send_user_message job, as for an answer
    // from the web inbox): the worker delivers it, retrying through a Telegram outage.
    notice(group, topic, "Answer stored in ticket " + ticket +
                             (a.user_telegram_id ? "; the bot sends it to the user." : "; the user has no Telegram chat (they see it in the app)."));
}

}  // namespace cabinet::bot
