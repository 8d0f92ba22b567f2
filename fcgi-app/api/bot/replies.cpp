#include "api/bot/replies.hpp"

#include <vector>

#include "util/json_object.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"
#include "util/user_agent.hpp"

namespace cabinet::bot {

std::string inline_keyboard(const std::vector<std::vector<Button>>& rows) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject markup(w);
        auto keyboard = markup.array("inline_keyboard");
        for (const auto& row : rows) {
            auto buttons = keyboard.array();
            for (const Button& b : row) {
                auto button = buttons.object();
                button.put("text", b.text);
                if (!b.callback_data.empty()) button.put("callback_data", b.callback_data);
                else button.object("web_app").put("url", b.web_app_url);
            }
        }
    }
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

namespace {
std::string started_at(int64_t unix_seconds) {
    const std::string iso = iso8601_utc(unix_seconds);  // 2026-11-23T18:20:05Z
    return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}
}  // namespace

// The warning comes first: a prompt is read from the top, and its browser line is the
// starter's to influence (only through util/user_agent's words, never their own text).
std::string web_login_prompt(const CodePrompt& p) {
    return "⚠️ Only if you started this yourself: whoever opened that page gets your account.\n\n"
           "Sign in to the web cabinet from " + describe_user_agent(p.starter.user_agent) + ", IP " +
           plain_ip(p.starter.ip) + ", started " + started_at(p.created_at) + "?";
}

namespace {
// "google,vk" as people know them: "Google and VK ID".
std::string provider_names(const std::string& list) {
    std::vector<std::string> names;
    for (const auto& id : split(list, ',')) {
        if (id == "google") names.emplace_back("Google");
        else if (id == "yandex") names.emplace_back("Yandex");
        else if (id == "vk") names.emplace_back("VK ID");
        else names.emplace_back(id);
    }
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
}
}  // namespace

std::string link_prompt(const CodePrompt& p) {
    // An account made by an OAuth sign-in may have no e-mail, or one without a password.
    const std::string account =
        !p.email.empty() ? p.email
        : p.oauth_providers.empty() ? "without an e-mail"
                                    : "without an e-mail (it signs in through " + provider_names(p.oauth_providers) + ")";
    std::string text = "⚠️ Only if you started this yourself.\n\nLink the web account " + account +
                       " to this Telegram account?\n\nIts balance, subscription and history move here";
    if (!p.email.empty() && p.has_password)
        text += ", and " + p.email + " with its password will sign in to this Telegram account";
    // Whoever holds those provider accounts signs in here too: a stranger's link must say so.
    if (!p.oauth_providers.empty()) {
        const std::string names = provider_names(p.oauth_providers);
        text += !p.email.empty() && p.has_password ? "; so will its " + names + " sign-in"
                                                   : ", and its " + names + " sign-in will sign in to this Telegram account";
    }
    return text + ". Its other web sessions end.";
}

std::string confirm_keyboard(std::string_view confirm_data, std::string_view cancel_data, std::string_view code) {
    return inline_keyboard({{Button{"Confirm", std::string(confirm_data) + std::string(code), ""},
                             Button{"Cancel", std::string(cancel_data) + std::string(code), ""}}});
}

}  // namespace cabinet::bot
