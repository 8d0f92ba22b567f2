#include "telegram/bot_api.hpp"

#include <curl/curl.h>

#include <filesystem>
#include <memory>

#include "payments/gateway.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {

BotApi::BotApi(const Settings& s)
    : base_(s.telegram_api_base + "/bot" + s.bot_token + "/"),
      connect_timeout_ms_(s.panel_connect_timeout_ms),
      http_(s.panel_connect_timeout_ms, s.gateway_timeout_ms) {}

namespace {

constexpr uintmax_t kMaxUploadBytes = 50ull * 1024 * 1024;  // Bot API limit of sendDocument
constexpr size_t kMaxMessageChars = 4096;                     // Bot API limits, in characters
constexpr size_t kMaxAlertChars = 200;

size_t append_reply(char* data, size_t size, size_t n, void* user) {
    static_cast<std::string*>(user)->append(data, size * n);
    return size * n;
}

void check_answer(const std::string& method, long status, const std::string& body) {
    rapidjson::Document d;
    d.Parse<kStrictParse>(body.data(), body.size());
    if (status != 200 || d.HasParseError() || !d.IsObject() || !d.HasMember("ok") || !d["ok"].IsBool() || !d["ok"].GetBool())
        throw BotApiError("Bot API " + method + " answered " + std::to_string(status));
}

// A message's fields: {"chat_id", what `extra` writes, "text" cut to the Bot API limit,
// "reply_markup" when there is a keyboard}.
template <class Extra>
std::string message_json(const std::string& chat_id, const std::string& text, const std::string& reply_markup_json,
                         Extra&& extra) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("chat_id", chat_id);
        extra(o);
        o.put("text", utf8_prefix(text, kMaxMessageChars));
        if (!reply_markup_json.empty()) o.raw("reply_markup", reply_markup_json);
    }
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace

rapidjson::Document BotApi::call(const std::string& method, const std::string& json_body, std::string_view benign_error) {
    HttpResponse r;
    try {
        r = http_.send("POST", base_ + method, {"Content-Type: application/json"}, json_body);
    } catch (const TransportError&) {
        throw BotApiError(std::string("Bot API ") + method + ": transport error");  // the URL holds the token: not logged
    }
    rapidjson::Document d;
    d.Parse<kStrictParse>(r.body.data(), r.body.size());
    const bool ok = r.status == 200 && !d.HasParseError() && d.IsObject() && d.HasMember("ok") && d["ok"].IsBool() &&
                    d["ok"].GetBool();
    if (!ok) {
        const bool benign = !benign_error.empty() && !d.HasParseError() && d.IsObject() && d.HasMember("description") &&
                            d["description"].IsString() &&
                            std::string_view(d["description"].GetString()).find(benign_error) != std::string_view::npos;
        if (benign) return rapidjson::Document();
        // 429 "Too Many Requests: retry after N" with parameters.retry_after = N.
        int64_t retry_after = 0;
        if (!d.HasParseError() && d.IsObject() && d.HasMember("parameters") && d["parameters"].IsObject()) {
            const auto& p = d["parameters"];
            if (p.HasMember("retry_after") && p["retry_after"].IsInt64() && p["retry_after"].GetInt64() > 0)
                retry_after = std::min<int64_t>(p["retry_after"].GetInt64(), 86400);
        }
        throw BotApiError("Bot API " + method + " answered " + std::to_string(r.status) +
                              (retry_after > 0 ? ", retry after " + std::to_string(retry_after) + " s" : ""),
                          retry_after, r.status);
    }
    return d;
}

bool BotApi::refund_star_payment(int64_t user_id, const std::string& telegram_payment_charge_id) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    JsonObject(w).put("user_id", user_id).put("telegram_payment_charge_id", telegram_payment_charge_id);
    return !call("refundStarPayment", buf.GetString(), "CHARGE_ALREADY_REFUNDED").IsNull();
}

std::string BotApi::create_invoice_link(const std::string& title, const std::string& description,
                                        const std::string& payload, int64_t stars) {
    // Bot API limits, in characters: a cut by bytes could split a Cyrillic letter, and the
    // Bot API refuses the invalid UTF-8 (a 502 for the buyer).
    const std::string_view label = utf8_prefix(title, 32);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("title", label).put("description", utf8_prefix(description, 255));
        o.put("payload", payload).put("currency", "XTR");
        o.array("prices").object().put("label", label).put("amount", stars);
    }
    const rapidjson::Document d = call("createInvoiceLink", buf.GetString());
    if (!d.HasMember("result") || !d["result"].IsString() || d["result"].GetStringLength() == 0)
        throw BotApiError("Bot API createInvoiceLink returned no link");
    return d["result"].GetString();
}

void BotApi::answer_pre_checkout_query(const std::string& query_id, bool ok, const std::string& error_message) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("pre_checkout_query_id", query_id).put("ok", ok);
        if (!ok) o.put("error_message", error_message);
    }
    call("answerPreCheckoutQuery", buf.GetString());
}

int64_t BotApi::post_message(const std::string& chat_id, const std::string& topic_id, const std::string& text,
                          const std::string& reply_markup_json) {
    const std::string body = message_json(chat_id, text, reply_markup_json, [&](JsonObject& o) {
        int64_t thread = 0;
        if (parse_int64(topic_id, thread)) o.put("message_thread_id", thread);  // an Integer in the Bot API
    });
    const rapidjson::Document d = call("sendMessage", body);
    const auto result = d.FindMember("result");
    if (result == d.MemberEnd() || !result->value.IsObject()) return 0;
    const auto id = result->value.FindMember("message_id");
    return id != result->value.MemberEnd() && id->value.IsInt64() ? id->value.GetInt64() : 0;
}

void BotApi::send_message(const std::string& chat_id, const std::string& topic_id, const std::string& text,
                          const std::string& reply_markup_json) {
    post_message(chat_id, topic_id, text, reply_markup_json);
}

void BotApi::answer_callback_query(const std::string& query_id, std::string_view text, bool show_alert) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("callback_query_id", query_id);
        if (!text.empty()) o.put("text", utf8_prefix(text, kMaxAlertChars));
        o.put("show_alert", show_alert);
    }
    call("answerCallbackQuery", buf.GetString());
}

void BotApi::edit_message_text(const std::string& chat_id, int64_t message_id, const std::string& text,
                               const std::string& reply_markup_json) {
    const std::string body =
        message_json(chat_id, text, reply_markup_json, [&](JsonObject& o) { o.put("message_id", message_id); });
    call("editMessageText", body, "message is not modified");
}

void BotApi::send_document(const std::string& chat_id, const std::string& topic_id, const std::string& file_path,
                           const std::string& caption) {
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(file_path, ec);
    if (ec) throw BotApiError("Bot API sendDocument: cannot read " + file_path + ": " + ec.message());
    if (size > kMaxUploadBytes)
        throw BotApiError("Bot API sendDocument: " + file_path + " is " + std::to_string(size) +
                           " bytes, above the Bot API limit of 50 MB");

    // Its own easy handle: an upload may take minutes, beyond the JSON calls' timeout.
    std::unique_ptr<CURL, void (*)(CURL*)> c(curl_easy_init(), curl_easy_cleanup);
    if (!c) throw BotApiError("Bot API sendDocument: curl_easy_init failed");
    std::unique_ptr<curl_mime, void (*)(curl_mime*)> mime(curl_mime_init(c.get()), curl_mime_free);
    auto text_part = [&](const char* name, const std::string& value) {
        curl_mimepart* p = curl_mime_addpart(mime.get());
        curl_mime_name(p, name);
        curl_mime_data(p, value.data(), value.size());
    };
    text_part("chat_id", chat_id);
    if (!topic_id.empty()) text_part("message_thread_id", topic_id);
    if (!caption.empty()) text_part("caption", caption.substr(0, 1024));  // Bot API caption limit
    curl_mimepart* doc = curl_mime_addpart(mime.get());
    curl_mime_name(doc, "document");
    if (curl_mime_filedata(doc, file_path.c_str()) != CURLE_OK)
        throw BotApiError("Bot API sendDocument: cannot read " + file_path);
    curl_mime_filename(doc, std::filesystem::path(file_path).filename().c_str());
    curl_mime_type(doc, "application/octet-stream");

    const std::string url = base_ + "sendDocument";
    std::string body;
    curl_easy_setopt(c.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(c.get(), CURLOPT_MIMEPOST, mime.get());
    curl_easy_setopt(c.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c.get(), CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect_timeout_ms_));
    curl_easy_setopt(c.get(), CURLOPT_TIMEOUT, 600L);
    curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, append_reply);
    curl_easy_setopt(c.get(), CURLOPT_WRITEDATA, &body);
    const CURLcode rc = curl_easy_perform(c.get());
    if (rc != CURLE_OK)  // the URL holds the token: not logged
        throw BotApiError(std::string("Bot API sendDocument: transport error: ") + curl_easy_strerror(rc));
    long status = 0;
    curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
    check_answer("sendDocument", status, body);
}

}  // namespace cabinet
