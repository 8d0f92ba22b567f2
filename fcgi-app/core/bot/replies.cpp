#include "bot/replies.hpp"

#include "util/json.hpp"

namespace cabinet::bot {

std::string inline_keyboard(const std::vector<std::vector<Button>>& rows) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("inline_keyboard");
    w.StartArray();
    for (const auto& row : rows) {
        w.StartArray();
        for (const Button& b : row) {
            w.StartObject();
            w.Key("text");
            write_string(w, b.text);
            if (!b.callback_data.empty()) {
                w.Key("callback_data");
                write_string(w, b.callback_data);
            } else {
                w.Key("web_app");
                w.StartObject();
                w.Key("url");
                write_string(w, b.web_app_url);
                w.EndObject();
            }
            w.EndObject();
        }
        w.EndArray();
    }
    w.EndArray();
    w.EndObject();
    return {buf.GetString(), buf.GetSize()};
}

std::string open_app_keyboard(const std::string& miniapp_url) {
    if (miniapp_url.empty()) return {};
    return inline_keyboard({{Button{"Open", "", miniapp_url}}});
}

std::string welcome_text(const User& u) {
    std::string t = "Welcome";
    if (!u.first_name.empty()) t += ", " + u.first_name;
    t += "! Your VPN subscription, payments and connection links are in the app.";
    return t;
}

std::string hint_text(bool has_app_button) {
    return has_app_button ? "I don't know that command. Everything is in the app: tap Open below."
                          : "I don't know that command. Send /start to begin.";
}

}  // namespace cabinet::bot
