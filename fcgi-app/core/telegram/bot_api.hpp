#pragma once
// The few Telegram Bot API methods the cabinet calls itself (the bot process owns the rest).
// TELEGRAM_API_BASE is a setting so tests talk to a fake. Failures are BotApiError (502, "Telegram Bot API unavailable").
#include <string>
#include <string_view>

#include "config/settings.hpp"
#include "net/http_client.hpp"
#include "payments/gateway.hpp"
#include "util/json.hpp"

namespace cabinet {

// A failed Bot API call: 502 like a payment gateway's, but saying which service failed.
// Telegram's flood control (429) says how long to wait: kept as the retry hint, and sent
// to an HTTP client as Retry-After.
// `http_status` is the Bot API's own answer (403: the user blocked the bot; 400: e.g. no
// chat with them), 0 when it never answered.
class BotApiError : public GatewayError, public RetryAfterHint {
public:
    explicit BotApiError(const std::string& why, int64_t retry_after_s = 0, long http_status = 0)
        : GatewayError("Telegram Bot API unavailable", why), RetryAfterHint(retry_after_s), http_status_(http_status) {
        if (retry_after_s > 0) headers.emplace_back("Retry-After", std::to_string(retry_after_s));
    }
    long http_status() const { return http_status_; }

private:
    long http_status_;
};

class BotApi {
public:
    explicit BotApi(const Settings& s);
    // An invoice in Telegram Stars (currency XTR); `payload` comes back in the payment.
    // Gives a Stars payment back to the user who paid it (refundStarPayment). False when
    // Telegram says it was refunded already (CHARGE_ALREADY_REFUNDED: the stars are back).
    bool refund_star_payment(int64_t user_id, const std::string& telegram_payment_charge_id);
    std::string create_invoice_link(const std::string& title, const std::string& description,
                                    const std::string& payload, int64_t stars);
    void answer_pre_checkout_query(const std::string& query_id, bool ok, const std::string& error_message = {});
    // A text message, into a forum topic when `topic_id` is not empty; `reply_markup_json` is
    // an InlineKeyboardMarkup object (JSON text) or empty.
    // The same, returning the new message's message_id (0 when the answer lacks it).
    int64_t post_message(const std::string& chat_id, const std::string& topic_id, const std::string& text,
                         const std::string& reply_markup_json = {});
    void send_message(const std::string& chat_id, const std::string& topic_id, const std::string& text,
                      const std::string& reply_markup_json = {});
    // The answer to a button press; `text` is cut to the Bot API's 200 characters.
    void answer_callback_query(const std::string& query_id, std::string_view text, bool show_alert);
    // Replaces the text and inline keyboard of a message the bot sent. Telegram refuses an
    // edit that changes nothing ("message is not modified"); that counts as done, so a
    // double press is not a failed update that Telegram would deliver again.
    void edit_message_text(const std::string& chat_id, int64_t message_id, const std::string& text,
                           const std::string& reply_markup_json = {});
    // Uploads a file (multipart/form-data) to a chat, into a forum topic when `topic_id` (a
    // message_thread_id) is not empty. The Bot API takes at most 50 MB; larger files are
    // refused here with a GatewayError, before anything is sent.
    void send_document(const std::string& chat_id, const std::string& topic_id, const std::string& file_path,
                       const std::string& caption);

private:
    // The method's string result, if any. An error whose description contains `benign_error`
    // (when not empty) is no failure.
    // The parsed answer ({ok: true, result}); an empty document for a benign error.
    rapidjson::Document call(const std::string& method, const std::string& json_body, std::string_view benign_error = {});

    std::string base_;
    int64_t connect_timeout_ms_;  // {TELEGRAM_API_BASE}/bot{token}/
    HttpClient http_;
};

}  // namespace cabinet
