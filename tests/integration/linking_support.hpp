#pragma once
// What the linking tests share (linking_test.cpp, linking_email_test.cpp): JSON requests,
// the fake Bot API's conversation with the bot, web accounts, the mailed codes.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "auth/passwords.hpp"
#include "support.hpp"
#include "util/web_tokens.hpp"

namespace it::linking_help {

inline const std::string kLinkPassword = "linking password 1";

inline std::string fresh_link_email(const std::string& tag) { return "lt" + std::to_string(fresh_telegram_id()) + "." + tag + "@example.test"; }

inline HttpResult post_json(const std::string& path, const std::string& body, const std::string& auth = {}) {
    std::vector<std::string> headers{"Content-Type: application/json"};
    if (!auth.empty()) headers.push_back("Authorization: " + auth);
    return http("POST", path, headers, body);
}
inline std::string code_body(const std::string& code) { return R"({"code":")" + code + R"("})"; }
inline std::string bearer(const std::string& token) { return "Bearer " + token; }

// A private "/start <payload>" from Telegram user `tg`; the texts the bot sent back.
inline std::vector<std::string> bot_start(int64_t tg, const std::string& payload) {
    const std::string id = std::to_string(tg);
    const int64_t mark = journal_mark();
    const auto r = bot_update(R"({"update_id":20,"message":{"message_id":9,"date":1700000000,"from":{"id":)" + id +
                              R"(,"is_bot":false,"first_name":"Link","username":"link_)" + id +
                              R"(","language_code":"en"},"chat":{"id":)" + id + R"(,"type":"private"},"text":"/start )" +
                              payload + "\"}}");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    std::vector<std::string> out;
    const auto calls = bot_api_calls("sendMessage", mark);
    for (const auto& c : calls.GetArray())
        if (c["json"].IsObject() && str(c["json"]["chat_id"]) == id) out.push_back(str(c["json"]["text"]));
    return out;
}
// Telegram user `tg` presses an inline button with `data` under the bot's message 55; the
// texts of the bot's answer (the prompt edited in place, or a new message).
inline std::vector<std::string> bot_press(int64_t tg, const std::string& data) {
    const std::string id = std::to_string(tg);
    const int64_t mark = journal_mark();
    const auto r = bot_update(R"({"update_id":21,"callback_query":{"id":"cbl)" + id + R"(","from":{"id":)" + id +
                              R"(,"is_bot":false,"first_name":"Link"},"chat_instance":"1","data":")" + data +
                              R"(","message":{"message_id":55,"date":1700000000,"chat":{"id":)" + id +
                              R"(,"type":"private"}}}})");
    BOOST_REQUIRE_EQUAL(r.status, 200);
    std::vector<std::string> out;
    for (const char* method : {"editMessageText", "sendMessage"}) {
        const auto calls = bot_api_calls(method, mark);
        for (const auto& c : calls.GetArray())
            if (c["json"].IsObject() && str(c["json"]["chat_id"]) == id) out.push_back(str(c["json"]["text"]));
    }
    return out;
}
inline bool said(const std::vector<std::string>& texts, const std::string& part) {
    for (const auto& t : texts)
        if (t.find(part) != std::string::npos) return true;
    return false;
}

// A verified web-only account made directly (hash as the test stack's settings make it);
// its user id.
inline int64_t make_web_user(const std::string& email, int64_t balance_minor = 0) {
    static const cabinet::PasswordHasher hasher(1, 8388608, 1);
    exec("INSERT INTO users (email, email_verified, password_hash, referral_code) VALUES ('" + email + "', true, '" +
         hasher.hash(kLinkPassword) + "', 'LT' || md5('" + email + "'))");
    const int64_t id = count("SELECT id FROM users WHERE email = '" + email + "'");
    if (balance_minor > 0) exec("SELECT ledger_set_balance(" + std::to_string(id) + ", " + std::to_string(balance_minor) + ")");
    return id;
}
inline HttpResult login(const std::string& email) {
    return post_json("/api/cabinet/auth/login", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})");
}
inline std::string access_of(const HttpResult& session) {
    BOOST_REQUIRE_MESSAGE(session.status == 200, session.status << " " << session.body);
    return session.json()["access_token"].GetString();
}

// The 6-digit code of the newest mail to `to` once `n` mails arrived.
inline std::string mailed_code(const std::string& to, size_t n = 1) {
    std::string raw;
    const bool ok = wait_until([&] {
        const auto r = http_url("GET", fake_url("/__fake/mail?to=" + to));
        const auto d = r.json();
        if (r.status != 200 || !d.IsArray() || d.Size() < n) return false;
        raw = d[d.Size() - 1]["raw"].GetString();
        return true;
    }, 15000);
    BOOST_REQUIRE_MESSAGE(ok, "no mail #" << n << " to " << to);
    const auto at = raw.find("Your code: ");
    BOOST_REQUIRE(at != std::string::npos);
    const std::string code = raw.substr(at + 11, 6);
    BOOST_REQUIRE(std::all_of(code.begin(), code.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }));
    return code;
}
// /start weblogin_<code>: the bot asks first; Confirm signs the browser in. The texts of both steps.
inline std::vector<std::string> confirm_web_login_in_bot(int64_t tg, const std::string& code) {
    auto texts = bot_start(tg, "weblogin_" + code);
    if (!said(texts, "Sign in to the web cabinet from")) return texts;
    const auto pressed = bot_press(tg, "wl+" + code);
    texts.insert(texts.end(), pressed.begin(), pressed.end());
    return texts;
}
// /start link_<code> (payload "link_<code>"), then Confirm.
inline std::vector<std::string> confirm_link_in_bot(int64_t tg, const std::string& payload) {
    auto texts = bot_start(tg, payload);
    if (!said(texts, "Link the web account")) return texts;
    const auto pressed = bot_press(tg, "ln+" + payload.substr(5));
    texts.insert(texts.end(), pressed.begin(), pressed.end());
    return texts;
}
inline std::string wrong_code(const std::string& code) { return code == "000000" ? "111111" : "000000"; }

// A Telegram web login as a browser starts it: its code, and the binding cookie ("name=value")
// the start set, which only that browser sends back with its polls.
struct WebLogin {
    std::string code;
    std::string cookie;
    HttpResult started;
};
// `body` {"approve_in_browser": true}: our page's sign-in, which its browser approves.
inline WebLogin start_web_login(const std::vector<std::string>& extra_headers = {}, const std::string& body = "{}") {
    std::vector<std::string> headers{"Content-Type: application/json"};
    headers.insert(headers.end(), extra_headers.begin(), extra_headers.end());
    auto r = http("POST", "/api/cabinet/auth/telegram/start", headers, body);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const std::string set_cookie = r.headers.count("set-cookie") ? r.headers.at("set-cookie") : std::string();
    const std::string code = r.json()["code"].GetString();
    return {code, set_cookie.substr(0, set_cookie.find(';')), std::move(r)};
}
// The poll of the browser that started it (`cookie` empty: of another browser).
inline HttpResult poll_web_login(const std::string& code, const std::string& cookie) {
    std::vector<std::string> headers{"Content-Type: application/json"};
    if (!cookie.empty()) headers.push_back("Cookie: " + cookie);
    return http("POST", "/api/cabinet/auth/telegram/poll", headers, code_body(code));
}
inline HttpResult poll_web_login(const WebLogin& w) { return poll_web_login(w.code, w.cookie); }
// The browser's answer to "is this you?" (`cookie` empty: of another browser).
inline HttpResult approve_web_login(const std::string& code, const std::string& cookie, bool approve) {
    std::vector<std::string> headers{"Content-Type: application/json"};
    if (!cookie.empty()) headers.push_back("Cookie: " + cookie);
    return http("POST", "/api/cabinet/auth/telegram/approve", headers,
                R"({"code":")" + code + R"(","approve":)" + (approve ? "true" : "false") + "}");
}

}  // namespace it::linking_help
