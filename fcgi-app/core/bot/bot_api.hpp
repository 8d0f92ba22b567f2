#pragma once
// The few Telegram Bot API methods the cabinet calls itself (the bot process owns the rest).
// TELEGRAM_API_BASE is a setting so tests talk to a fake. Failures are GatewayError (502).
#include <string>

#include "config/settings.hpp"
#include "net/http_client.hpp"

namespace cabinet {

class BotApi {
public:
    explicit BotApi(const Settings& s);
    // An invoice in Telegram Stars (currency XTR); `payload` comes back in the payment.
    std::string create_invoice_link(const std::string& title, const std::string& description,
                                    const std::string& payload, int64_t stars);
    void answer_pre_checkout_query(const std::string& query_id, bool ok, const std::string& error_message = {});

private:
    std::string call(const std::string& method, const std::string& json_body);

    std::string base_;  // {TELEGRAM_API_BASE}/bot{token}/
    HttpClient http_;
};

}  // namespace cabinet
