#include "telegram/message_delivery.hpp"

#include <algorithm>

#include "util/json.hpp"

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
    w.StartObject();
    w.Key("chat_id");
    w.Int64(chat_id);
    w.Key("text");
    write_string(w, html);
    w.Key("parse_mode");
    w.String("HTML");
    if (button) {
        w.Key("reply_markup");
        w.StartObject();
        w.Key("inline_keyboard");
        w.StartArray();
        w.StartArray();
        w.StartObject();
        w.Key("text");
        write_string(w, button->text);
        w.Key("url");
        write_string(w, button->url);
        w.EndObject();
        w.EndArray();
        w.EndArray();
        w.EndObject();
    }
    w.EndObject();
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
