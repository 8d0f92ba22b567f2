#include "telegram/message_delivery.hpp"

#include <algorithm>

#include "util/json_object.hpp"

namespace cabinet {

Delivery classify_bot_answer(long status, std::string_view body) {
    rapidjson::Document d;
    d.Parse<kStrictParse>(body.data(), body.size());
    const bool object = !d.HasParseError() && d.IsObject();
    if (status == 200 && object && d.HasMember("ok") && d["ok"].IsBool() && d["ok"].GetBool())
        return {Delivery::Kind::delivered, 0, {}};
    std::string description = "Bot API answered " + std::to_string(status);
    if (object && d.HasMember("description") && d["description"].IsString())
        description = std::string(d["description"].GetString(), std::min<size_t>(d["description"].GetStringLength(), 300));
    if (status == 403) return {Delivery::Kind::blocked, 0, description};
    if (status == 429) {
        int64_t wait = 1;
        if (object && d.HasMember("parameters") && d["parameters"].IsObject()) {
            const auto& p = d["parameters"];
            if (p.HasMember("retry_after") && p["retry_after"].IsInt64())
                wait = std::clamp<int64_t>(p["retry_after"].GetInt64(), 1, 3600);
        }
        return {Delivery::Kind::retry_after, wait, description};
    }
    return {Delivery::Kind::failed, 0, description};
}

std::string html_message_json(int64_t chat_id, const std::string& html, const std::optional<UrlButton>& button) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("chat_id", chat_id).put("text", html).put("parse_mode", "HTML");
        if (button)  // one row of one URL button
            o.object("reply_markup").array("inline_keyboard").array().object()
                .put("text", button->text)
                .put("url", button->url);
    }
    return {buf.GetString(), buf.GetSize()};
}

MessageSender::MessageSender(const Settings& s)
    : url_(s.telegram_api_base + "/bot" + s.bot_token + "/sendMessage"),
      http_(s.panel_connect_timeout_ms, s.gateway_timeout_ms) {}

Delivery MessageSender::send_html(int64_t chat_id, const std::string& html, const std::optional<UrlButton>& button) {
    try {
        const HttpResponse r = http_.send("POST", url_, {"Content-Type: application/json"},
                                          html_message_json(chat_id, html, button));
        return classify_bot_answer(r.status, r.body);
    } catch (const TransportError&) {
        // Sent or not, nobody knows: not tried again (the URL holds the token: not logged).
        return {Delivery::Kind::failed, 0, "Bot API sendMessage: transport error"};
    }
}

}  // namespace cabinet
