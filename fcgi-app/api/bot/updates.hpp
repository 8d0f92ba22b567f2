#pragma once
// A Bot API update (core.telegram.org/bots/api#update) reduced to what the webhook acts on:
// pure parsing, no I/O. Anything else an update may carry (edited messages, membership
// changes, channel posts) parses to an update with nothing in it, acknowledged and ignored.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "domain/telegram_user.hpp"
#include "util/json.hpp"

namespace cabinet::bot {

// A message from a person (`from` present), with its text when it has one.
struct ChatMessage {
    int64_t chat_id = 0;
    int64_t message_id = 0;  // unique within its chat
    bool is_private = false;  // chat.type == "private": the bot talks only there
    TelegramUser from;
    std::string text;
    // The message this one answers (Telegram's "reply"): how an admin answers a ticket
    // notification in the reporting group.
    std::optional<int64_t> reply_to_message_id;
};

// A press on an inline keyboard button of a message the bot sent.
struct ButtonPress {
    std::string id;  // callback_query id, for answerCallbackQuery
    TelegramUser from;
    std::string data;  // callback_data
    // The message with the keyboard; absent for inline-mode messages.
    std::optional<int64_t> chat_id;
    std::optional<int64_t> message_id;
};

struct Update {
    // Telegram Stars: these objects as they came, handled by api/bot/stars.
    const rapidjson::Value* pre_checkout_query = nullptr;
    const rapidjson::Value* successful_payment = nullptr;
    const rapidjson::Value* refunded_payment = nullptr;  // Stars given back to the buyer
    std::optional<ChatMessage> message;
    std::optional<ButtonPress> button;
};

// `update` must outlive the result (the Stars members point into it). Never throws: a part
// that is missing or malformed is left empty.
Update parse_update(const rapidjson::Value& update);

// A bot command: "/start ref_ABC" → {"start", "ref_ABC"}. "/start@name" counts only when
// `name` is `bot_username` (any case) or that setting is empty. nullopt for plain text.
struct Command {
    std::string name;     // lower case, without the slash
    std::string payload;  // the rest of the text, trimmed
};
std::optional<Command> parse_command(std::string_view text, std::string_view bot_username);

}  // namespace cabinet::bot
