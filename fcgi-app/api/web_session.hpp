#pragma once
// What every web-cabinet login endpoint shares (e-mail, Telegram web login, OAuth): the
// switch that turns the whole surface off, and the session answer (SPEC-GAPS "Session").
#include "app/context.hpp"
#include "domain/telegram_code.hpp"
#include "services/web_auth.hpp"

namespace cabinet::api {

// The web sessions service for this request; 403 "web cabinet is disabled" unless
// WEB_CABINET_ENABLED, before anything is parsed or counted.
WebAuth web_auth_for(Exchange& ex);

// {access_token, refresh_token, token_type: "bearer", expires_in, user: {id, email, email_verified}}
void write_session(Exchange& ex, const WebSession& s);

// The Telegram account that confirmed a code in the bot, for the question its browser asks
// (link and web-login approval): {id, username (null when none), first_name}.
void write_code_confirmer(JsonWriter& w, const CodeConfirmer& who);

// The browser asking for a Telegram code (IP as nginx saw it, user agent cut to 200
// characters), for the bot's "only if you started this yourself" prompt, and the hash of
// its binding cookie when it sends one.
CodeStarter code_starter(const Request& req);

// The cookie that binds an OAuth state or a Telegram sign-in code to the browser that asked
// for it: a random value only that browser sends back. __Host- (Secure, Path=/, no
// Domain), HttpOnly, SameSite=Strict (the callback and the poll are POSTs from our own
// pages). Named for its first use; the name is in the API document.
inline constexpr std::string_view kBrowserCookie = "__Host-cabinet_oauth";
// This request's binding value; empty when it sends none or a malformed one.
std::string browser_binding(const Request& req);
// The binding value, made when the browser has none, and (re)set as a cookie for
// `max_age_s` (10 minutes: a sign-in or an OAuth round; a guest purchase keeps it as long
// as its sign-in lasts): two tabs of one browser share it.
std::string bind_browser(Exchange& ex, int64_t max_age_s = 600);

// {email} as the auth routes take it: canonical (domain/email.hpp); 400 otherwise.
std::string require_email(const rapidjson::Value& body);

}  // namespace cabinet::api
