#pragma once
// One bot message to one customer (their private chat with the bot), sent by the worker:
// queued as a `send_user_message` job in the caller's transaction, so the message goes out
// exactly when what it announces commits (an answer to a ticket, an owner's message), and a
// Bot API outage delays it instead of losing it. The handler is in
// tools/cabinetctl/job_handlers.cpp.
#include <pqxx/pqxx>

#include <cstdint>
#include <string_view>

namespace cabinet {

inline constexpr const char* kSendUserMessageJob = "send_user_message";

// The most a Bot API message holds, in characters (code points).
inline constexpr size_t kUserMessageMaxChars = 4096;

// Queues `text` (1..4096 characters of valid UTF-8, not blank; else std::invalid_argument)
// for the Telegram chat `telegram_id`. `ref` names what the message is (e.g.
// "support_message:42", an owner action's idempotency key): a second call with the same
// non-empty ref queues nothing and returns the first job's id, while that job is pending,
// running or done (a dead one sets its ref free). Empty ref: no dedupe. The job retries for
// hours (a customer is owed the message); a customer who blocked the bot or has no chat
// with it is logged and dropped, not retried. Returns the job's id.
int64_t queue_user_message(pqxx::transaction_base& txn, int64_t telegram_id, std::string_view text, std::string_view ref);

}  // namespace cabinet
