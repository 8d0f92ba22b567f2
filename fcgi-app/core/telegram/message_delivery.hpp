#pragma once
// One message to one customer through the Bot API's sendMessage, and what became of it in
// the terms a broadcast records (services/broadcast_sending.hpp): delivered, blocked (403:
// the customer blocked the bot or deleted their account; later broadcasts skip them), a
// flood-control pause (429 with parameters.retry_after: the same message may be tried
// again after it), or failed. Nothing here retries: a timeout may have delivered, so
// whether to send again is the caller's decision.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "config/settings.hpp"
#include "net/http_client.hpp"

namespace cabinet {

struct Delivery {
    enum class Kind { delivered, blocked, retry_after, failed } kind = Kind::failed;
    int64_t retry_after_s = 0;  // retry_after only
    std::string error;          // Telegram's description, or what failed; empty when delivered
};

// The Bot API's answer read: status and body as received.
Delivery classify_bot_answer(long status, std::string_view body);

struct UrlButton {
    std::string text;
    std::string url;
};

// sendMessage's JSON body: the text with parse_mode HTML, and one URL button under it.
std::string html_message_json(int64_t chat_id, const std::string& html, const std::optional<UrlButton>& button);

class MessageSender {
public:
    explicit MessageSender(const Settings& s);
    Delivery send_html(int64_t chat_id, const std::string& html, const std::optional<UrlButton>& button);

private:
    std::string url_;  // {TELEGRAM_API_BASE}/bot{token}/sendMessage: holds the token, never logged
    HttpClient http_;
};

}  // namespace cabinet
