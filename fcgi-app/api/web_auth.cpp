// POST /api/cabinet/auth/password/{forgot,reset,change}, POST …/auth/verify/resend and
// DELETE /api/cabinet/link/email: passwords and the e-mail sign-in (issue 49);
// POST /api/cabinet/auth/{register,verify,login,refresh,logout,logout-others}: the web
// cabinet's e-mail accounts and sessions (SPEC-GAPS "Auth and sessions";
// services/web_auth.hpp), and
// POST /api/cabinet/auth/telegram/{start,poll}: signing in through the bot
// (services/telegram_codes.hpp).
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "api/web_session.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/telegram_codes.hpp"
#include "services/web_auth.hpp"
#include "util/web_tokens.hpp"

namespace cabinet::api {
namespace {

// Tokens are base64url of 32 bytes (43 characters); a generous cap keeps hashing cheap.
std::string require_token(const rapidjson::Value& body, const char* field) { return require_string(body, field, 1, 256); }

// {ok: true, ended: N}: how many other sessions a sign-out or a password change ended.
void write_ended(Exchange& ex, int64_t ended) {
    JsonObject(ex.resp.json()).put("ok", true).put("ended", ended);
}

// {email} → `ask` (which may mail the address) → {ok: true}, whatever the address.
void mail_request(Exchange& ex, void (WebAuth::*ask)(std::string_view, const std::string&)) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    (auth.*ask)(ex.req.remote_addr, require_email(body));
    write_ok(ex);
}

}  // namespace

void post_auth_register(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string email = require_email(body);
    const std::string password = require_string(body, "password", 8, 128);
    // The page's language, for the account's mails and messages; without one (the original's
    // page sends none) the shop's default, Russian, as before.
    const auto language = optional_string(body, "language", 16);
    auth.register_account(ex.req.remote_addr, email, password, language && language->rfind("en", 0) == 0 ? "en" : "ru");
    JsonObject(ex.resp.json()).put("ok", true).put("requires_verification", true).put("email", email);
}

void post_auth_verify(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    // "password" only for a contested address's link (services/web_auth.hpp verify).
    write_session(ex, auth.verify(ex.req.remote_addr, require_token(body, "token"), optional_string(body, "password", 128)));
}

void post_auth_login(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string email = require_email(body);
    // No length policy here beyond the cap: the policy is for new passwords only.
    const std::string password = require_string(body, "password", 1, 128);
    write_session(ex, auth.login(ex.req.remote_addr, email, password));
}

// "Forgot password": {ok: true} whatever the address (services/web_auth.hpp).
void post_auth_password_forgot(Exchange& ex) { mail_request(ex, &WebAuth::forgot_password); }

// The mailed link's new password: a session, every other one ended.
void post_auth_password_reset(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string token = require_token(body, "token");
    const std::string password = require_string(body, "password", 8, 128);
    const WebSession session = auth.reset_password(ex.req.remote_addr, token, password);
    // The ended sessions' access tokens are refused from now (as post_auth_logout).
    ex.shared.accounts.wrote(session.user_id);
    write_session(ex, session);
}

// Signed in: {current_password, password} → {ok, ended}; this session stays.
void post_auth_password_change(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string current = require_string(body, "current_password", 1, 128);
    const std::string password = require_string(body, "password", 8, 128);
    if (ex.web_session && ex.session_id.empty()) throw unauthorized("this token names no session; refresh it");
    const int64_t ended = auth.change_password(ex.req.remote_addr, ex.caller().user.id, current, password, ex.session_id);
    if (ended > 0) ex.shared.accounts.wrote(ex.caller().user.id);
    write_ended(ex, ended);
}

// Another verification mail: {ok: true} whatever the address.
void post_auth_verify_resend(Exchange& ex) { mail_request(ex, &WebAuth::resend_verification); }

// Signed in: the e-mail sign-in taken off the account (it keeps another way in).
void delete_link_email(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    if (ex.web_session && ex.session_id.empty()) throw unauthorized("this token names no session; refresh it");
    auth.remove_email_sign_in(ex.caller().user.id, ex.session_id);
    write_ok(ex);
}

void post_auth_refresh(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    write_session(ex, auth.refresh(require_token(body, "refresh_token")));
}

void post_auth_logout(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    // The route leaves the account copies alone (it is no caller's write): the session's
    // user is forgotten here, so that its access tokens are refused before the answer.
    if (const auto user_id = auth.logout(require_token(body, "refresh_token"))) ex.shared.accounts.wrote(*user_id);
    write_ok(ex);
}

// Signed in (init data or a web token): ends the caller's other web sessions.
void post_auth_logout_others(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    // A web token from before session ids names no session, and "all" would end the
    // caller's own too: 401 makes the page refresh (its new token names it) and ask again.
    if (ex.web_session && ex.session_id.empty()) throw unauthorized("this token names no session; refresh it");
    const int64_t ended = auth.end_other_sessions(ex.caller().user.id, ex.session_id);
    if (ended > 0) ex.shared.accounts.wrote(ex.caller().user.id);  // as in post_auth_logout
    write_ended(ex, ended);
}

void post_auth_telegram_start(Exchange& ex) {
    web_auth_for(ex);  // the web-cabinet switch
    // Only this browser may finish the sign-in: the code is in the link and its QR code on
    // the screen, for anyone who sees it to read.
    CodeStarter starter = code_starter(ex.req);
    // Our page asks to approve the Telegram account in the browser: whoever reads the QR
    // code and confirms first would otherwise sign this browser in to their own account. A
    // client that does not ask (the original's, which sends no body) signs in on Confirm.
    if (!ex.req.body.empty()) {
        const JsonBody body(ex.req);
        starter.needs_approval = has_field(body, "approve_in_browser") && require_bool(body, "approve_in_browser");
    }
    starter.browser_hash = opaque_token_hash(bind_browser(ex));
    const TelegramCodeOffer offer = start_web_login(ex.io.db, ex.settings(), starter);
    JsonObject(ex.resp.json()).put("code", offer.code).put("url", offer.url).put("expires_in", offer.expires_in);
}

// {pending: true} while nobody confirmed; {pending: true, telegram: {...}} once the bot's
// Confirm named who, for a code this browser approves; the session otherwise.
void post_auth_telegram_poll(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const WebLoginPoll poll = poll_web_login(ex.io.db, auth, require_token(body, "code"), browser_binding(ex.req));
    if (poll.session) return write_session(ex, *poll.session);
    JsonObject o(ex.resp.json());
    o.put("pending", true);
    if (poll.confirmer) write_code_confirmer(o.key("telegram"), *poll.confirmer);
}

// "Yes, that is my Telegram account" signs this browser in to it; "no" ends the code.
void post_auth_telegram_approve(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string code = require_token(body, "code");
    const bool approve = require_bool(body, "approve");
    const auto session = approve_web_login(ex.io.db, auth, code, browser_binding(ex.req), approve);
    if (session) return write_session(ex, *session);
    write_ok(ex);
}

}  // namespace cabinet::api
