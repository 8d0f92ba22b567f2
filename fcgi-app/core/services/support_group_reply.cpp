#include "services/support_group_reply.hpp"

namespace cabinet {

GroupReplyOutcome answer_ticket_in_group(Db& db, const GroupReply& r) {
    return db.write([&](pqxx::work& txn) {
        GroupReplyOutcome out;
        // In a forum group every message of a topic is a reply to the topic's first one:
        // only a reply to a ticket's notification is an answer.
        const auto ticket = ticket_by_notification(txn, std::to_string(r.chat_id), r.replied_to);
        if (!ticket) return out;  // a reply to some other message of the group
        out.ticket_id = *ticket;
        if (!valid_support_text(r.text)) {
            out.not_text = true;
            return out;
        }
        std::optional<std::string> source;
        if (r.message_id != 0) source = "telegram:" + std::to_string(r.chat_id) + ":" + std::to_string(r.message_id);
        out.outcome = reply_to_ticket(txn, *ticket, r.text, "telegram:" + std::to_string(r.from_telegram_id), source);
        if (out.outcome == ReplyOutcome::replied) {
            if (const auto t = ticket_of(txn, *ticket)) out.user_telegram_id = t->telegram_id;
        }
        return out;
    });
}

}  // namespace cabinet
