#pragma once
// The support chat: one conversation ("ticket") per user at a time, written by the user
// (POST /api/cabinet/support) and by support (cabinetctl support reply, the bot's reply to
// a ticket notification). Every user message is reported to the reporting group's tickets
// topic through a `send_report` job queued in the same transaction, so a notification goes
// out exactly when the message is stored. SQL: db/support_statements.cpp.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/settings.hpp"
#include "db/db.hpp"

namespace cabinet {

inline constexpr size_t kSupportTextMaxChars = 4096;

struct SupportMessage {
    std::string author;  // "user" | "support"
    std::string text;
    int64_t at = 0;  // Unix seconds
};

struct SupportTicket {
    int64_t id = 0;
    int64_t user_id = 0;
    std::string status;  // open | waiting | closed
    int64_t created_at = 0;
    int64_t updated_at = 0;
    std::optional<int64_t> telegram_id;
    std::string username;
    std::string email;
    int64_t message_count = 0;
    std::vector<SupportMessage> messages;  // filled by open_ticket_of_user and ticket_with_messages
};

// The ticket of a row of the statements with SUPPORT_TICKET_COLUMNS (db/support_statements.cpp).
SupportTicket ticket_from_row(const pqxx::row& r);

// The most a user's view of their ticket shows: its last messages. The mini-app polls it
// every few seconds, and a ticket is only closed by an operator, so it can grow for good.
inline constexpr int64_t kSupportMessagesShown = 200;

// The user's ticket that is not closed, with its last kSupportMessagesShown messages;
// nullopt when there is none.
std::optional<SupportTicket> open_ticket_of_user(pqxx::transaction_base& txn, int64_t user_id);
// The same, read on its own (GET /api/cabinet/support).
std::optional<SupportTicket> open_ticket_of_user(Db& db, int64_t user_id);

struct PostedMessage {
    int64_t ticket_id = 0;
    bool new_ticket = false;
};
// Appends the user's message to their open ticket (created if none; status becomes "open")
// and queues the tickets-topic notification. `text` must be 1..4096 characters. More than
// SUPPORT_MESSAGES_PER_10_MIN in 10 minutes: ApiError 429 with Retry-After, nothing written.
PostedMessage post_user_message(pqxx::transaction_base& txn, const Settings& s, int64_t user_id, std::string_view text);
// The same in one Db::write of its own (POST /api/cabinet/support).
PostedMessage post_user_message(Db& db, const Settings& s, int64_t user_id, std::string_view text);

enum class ReplyOutcome { replied, not_found, closed, already_stored };
// Support's answer: appends a "support" message and sets the status to "waiting" (and the
// ticket read), with an audit entry naming `actor` (who answered: "telegram:<id>",
// "cabinetctl", an admin_actor of the web inbox), and queues it for the customer's
// Telegram chat (services/user_messages.hpp, ref "support_message:<id>") when they have
// one. A closed
// ticket is not reopened (the user may already have a newer one). `source_ref` names where
// the answer came from ("telegram:<chat>:<message id>"): one already stored under it is
// not stored again (already_stored). Throws std::invalid_argument when `text` is not
// 1..4096 characters.
ReplyOutcome reply_to_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view text,
                             std::string_view actor, const std::optional<std::string>& source_ref = std::nullopt);

// Closes the ticket, with an audit entry naming `actor`; false when there is no such
// ticket. Closing twice is fine (audited once).
bool close_ticket(pqxx::transaction_base& txn, int64_t ticket_id, std::string_view actor);

// Tickets by latest activity, newest first; `status` empty = any (message_count is set).
std::vector<SupportTicket> list_tickets(pqxx::transaction_base& txn, const std::string& status, int64_t limit);
std::optional<SupportTicket> ticket_with_messages(pqxx::transaction_base& txn, int64_t ticket_id);
// The ticket without its messages (its user's handles).
std::optional<SupportTicket> ticket_of(pqxx::transaction_base& txn, int64_t ticket_id);

// The `ref` of a ticket notification's send_report job: this prefix and the message's id.
inline constexpr std::string_view kSupportMessageRef = "support_message:";
// The worker sent message `support_message_id`'s notification as `telegram_message_id` in
// chat `chat_id` (message ids are unique only within a chat).
void record_ticket_notification(pqxx::transaction_base& txn, int64_t support_message_id, const std::string& chat_id,
                                int64_t telegram_message_id);
// The ticket whose notification is message `telegram_message_id` of chat `chat_id`.
std::optional<int64_t> ticket_by_notification(pqxx::transaction_base& txn, const std::string& chat_id,
                                              int64_t telegram_message_id);

// True for text a ticket message may carry: 1..4096 characters (code points) of valid UTF-8.
bool valid_support_text(std::string_view text);

}  // namespace cabinet
