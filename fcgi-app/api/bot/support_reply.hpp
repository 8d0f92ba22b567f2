#pragma once
// An admin answers a support ticket from Telegram: in the reporting group they reply to
// the ticket's notification, and the reply becomes support's message in that ticket
// (services/support.hpp), shown by GET /support and the owner's inbox, and queued for the
// user's Telegram chat (the send_user_message job, as an answer from the web inbox is).
#include "api/bot/updates.hpp"
#include "app/context.hpp"
#include "telegram/bot_api.hpp"

namespace cabinet::bot {

// A reply in the reporting group (REPORT_CHAT_ID) to another message: ours to handle here.
bool is_reporting_group_reply(const Settings& s, const ChatMessage& m);

// Routes an admin's reply to the ticket its quoted notification belongs to. Non-admins and
// replies to other messages are ignored. Once the answer is stored (and the user's copy
// queued with it), the confirmation in the group is best effort: a failure there must not
// make Telegram resend the update (which would store nothing twice, but say nothing).
void answer_ticket_from_group(Exchange& ex, BotApi& api, const ChatMessage& m);

}  // namespace cabinet::bot
