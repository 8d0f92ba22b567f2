#pragma once
// An admin's reply in the reporting group to a ticket's notification becomes support's
// answer in that ticket (api/bot/support_reply.cpp): found, checked and stored, the
// customer's copy queued with it, in one transaction (services/support.hpp's rules).
#include <cstdint>
#include <optional>
#include <string>

#include "db/db.hpp"
#include "services/support.hpp"

namespace cabinet {

// The reply as the bot received it.
struct GroupReply {
    int64_t chat_id = 0;           // the reporting group
    int64_t replied_to = 0;        // the message it replies to: a ticket's notification, or not
    int64_t message_id = 0;        // the reply itself; 0: unknown
    int64_t from_telegram_id = 0;  // the admin who answered
    std::string text;
};

struct GroupReplyOutcome {
    ReplyOutcome outcome = ReplyOutcome::not_found;
    int64_t ticket_id = 0;  // 0: a reply to some other message of the group
    bool not_text = false;  // a reply to a notification, but no answer a ticket can carry
    std::optional<int64_t> user_telegram_id;  // when replied: the customer's chat, if any
};

// In one Db::write. Telegram delivers an update again when our answer to it was late: one
// message, one stored answer (already_stored the second time), sent to the customer once.
GroupReplyOutcome answer_ticket_in_group(Db& db, const GroupReply& r);

}  // namespace cabinet
