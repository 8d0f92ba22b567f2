#include "api/web_session.hpp"

#include "domain/email.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"
#include "util/web_tokens.hpp"

namespace cabinet::api {

WebAuth web_auth_for(Exchange& ex) {
    if (!ex.settings().web_cabinet_enabled) throw forbidden("web cabinet is disabled", "web_cabinet_off");
    return WebAuth(ex.settings(), ex.shared.jwt, ex.shared.passwords, ex.io.db, ex.io.redis);
}

void write_code_confirmer(JsonWriter& w, const CodeConfirmer& who) {
    JsonObject(w)
        .put("id", who.telegram_id)
        .put("username", who.username.empty() ? std::nullopt : std::optional(who.username))
        .put("first_name", who.first_name);
}

void write_session(Exchange& ex, const WebSession& s) {
    JsonObject o(ex.resp.json());
    o.put("access_token", s.access_token).put("refresh_token", s.refresh_token).put("token_type", "bearer");
    o.put("expires_in", s.expires_in);
    o.object("user").put("id", s.user_id).put("email", s.email).put("email_verified", s.email_verified);
}

CodeStarter code_starter(const Request& req) {
    // The browser's claim is shown in the bot's prompt and stored: bytes that are not UTF-8
    // (PostgreSQL refuses them) make it "an unknown browser" rather than a 500.
    const std::string_view ua = valid_utf8(req.user_agent) ? std::string_view(req.user_agent) : std::string_view();
    const std::string browser = browser_binding(req);
    return {req.remote_addr.substr(0, 64), std::string(utf8_prefix(ua, 200)),
            browser.empty() ? std::string() : opaque_token_hash(browser)};
}

std::string browser_binding(const Request& req) {
    const auto v = cookie_value(req.cookie, kBrowserCookie).value_or(std::string());
    const bool ok = v.size() == 43 && v.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
    return ok ? v : std::string();
}

std::string bind_browser(Exchange& ex, int64_t max_age_s) {
    std::string browser = browser_binding(ex.req);
    if (browser.empty()) browser = new_opaque_token();
    ex.resp.header("Set-Cookie", std::string(kBrowserCookie) + "=" + browser + "; Path=/; Max-Age=" +
                                     std::to_string(max_age_s) + "; Secure; HttpOnly; SameSite=Strict");
    return browser;
}

std::string require_email(const rapidjson::Value& body) {
    const auto email = normalize_email(require_string(body, "email", 3, 254));
    if (!email) throw bad_request("email is not a valid e-mail address", "invalid_email");
    return *email;
}

}  // namespace cabinet::api
