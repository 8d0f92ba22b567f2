#include "api/bot/updates.hpp"

#include "util/strings.hpp"

namespace cabinet::bot {
namespace {

// Telegram's updates are trusted in shape (the secret token proved the sender), yet a part
// we cannot read is skipped rather than refused: a refused update is delivered again and
// again, and nothing in it would ever become readable.
const rapidjson::Value* object_field(const rapidjson::Value& obj, const char* name) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(name);
    return it != obj.MemberEnd() && it->value.IsObject() ? &it->value : nullptr;
}

std::optional<int64_t> int_field(const rapidjson::Value& obj, const char* name) {
    auto it = obj.FindMember(name);
    if (it == obj.MemberEnd() || !it->value.IsInt64()) return std::nullopt;
    return it->value.GetInt64();
}

// Text up to its first NUL (PostgreSQL text cannot hold one), "" when absent.
std::string string_field(const rapidjson::Value& obj, const char* name) {
    auto it = obj.FindMember(name);
    if (it == obj.MemberEnd() || !it->value.IsString()) return {};
    std::string s(it->value.GetString(), it->value.GetStringLength());
    if (auto nul = s.find('\0'); nul != std::string::npos) s.resize(nul);
    return s;
}

std::optional<TelegramUser> user_of(const rapidjson::Value& parent) {
    const rapidjson::Value* from = object_field(parent, "from");
    if (!from) return std::nullopt;
    const auto id = int_field(*from, "id");
    if (!id || *id <= 0) return std::nullopt;
    TelegramUser u;
    u.id = *id;
    u.first_name = string_field(*from, "first_name");
    u.last_name = string_field(*from, "last_name");
    u.username = string_field(*from, "username");
    u.language_code = string_field(*from, "language_code");
    return u;
}

std::optional<ChatMessage> message_of(const rapidjson::Value& m) {
    const rapidjson::Value* chat = object_field(m, "chat");
    auto from = user_of(m);
    if (!chat || !from) return std::nullopt;  // channel posts and service messages have no sender
    const auto chat_id = int_field(*chat, "id");
    if (!chat_id) return std::nullopt;
    ChatMessage out;
    out.chat_id = *chat_id;
    out.message_id = int_field(m, "message_id").value_or(0);
    out.is_private = string_field(*chat, "type") == "private";
    out.from = std::move(*from);
    out.text = string_field(m, "text");
    if (const rapidjson::Value* replied = object_field(m, "reply_to_message"))
        out.reply_to_message_id = int_field(*replied, "message_id");
    return out;
}

std::optional<ButtonPress> button_of(const rapidjson::Value& q) {
    auto from = user_of(q);
    std::string id = string_field(q, "id");
    if (!from || id.empty()) return std::nullopt;
    ButtonPress out;
    out.id = std::move(id);
    out.from = std::move(*from);
    out.data = string_field(q, "data");
    if (const rapidjson::Value* m = object_field(q, "message")) {
        out.message_id = int_field(*m, "message_id");
        if (const rapidjson::Value* chat = object_field(*m, "chat")) out.chat_id = int_field(*chat, "id");
    }
    return out;
}

}  // namespace

Update parse_update(const rapidjson::Value& update) {
    Update u;
    u.pre_checkout_query = object_field(update, "pre_checkout_query");
    if (const rapidjson::Value* m = object_field(update, "message")) {
        u.successful_payment = object_field(*m, "successful_payment");
        u.refunded_payment = object_field(*m, "refunded_payment");
        if (!u.successful_payment && !u.refunded_payment) u.message = message_of(*m);
    }
    if (const rapidjson::Value* q = object_field(update, "callback_query")) u.button = button_of(*q);
    return u;
}

std::optional<Command> parse_command(std::string_view text, std::string_view bot_username) {
    text = trim(text);
    if (text.size() < 2 || text[0] != '/') return std::nullopt;
    const size_t end = text.find_first_of(" \t\r\n");  // the whitespace trim() knows
    std::string_view word = text.substr(1, end == std::string_view::npos ? std::string_view::npos : end - 1);
    if (const size_t at = word.find('@'); at != std::string_view::npos) {
        if (!bot_username.empty() && to_lower(word.substr(at + 1)) != to_lower(bot_username)) return std::nullopt;
        word = word.substr(0, at);
    }
    if (word.empty()) return std::nullopt;
    Command c;
    c.name = to_lower(word);
    if (end != std::string_view::npos) c.payload = std::string(trim(text.substr(end)));
    return c;
}

}  // namespace cabinet::bot
