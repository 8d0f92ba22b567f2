// GET /api/cabinet/linked, POST /api/cabinet/link/{email,email/confirm,telegram}: the ways
// into an account and linking more of them (SPEC-GAPS "Cabinet shapes"; docs/decisions.md
// "Telegram web login and account linking (issue 7)").
#include <algorithm>

#include "api/handlers.hpp"
#include "api/web_session.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/account_merge.hpp"
#include "services/email_link.hpp"
#include "services/linked_logins.hpp"
#include "services/telegram_codes.hpp"

namespace cabinet::api {
namespace {

// E-mail and Telegram logins lead to the web cabinet: no linking while it is off.
void require_web_cabinet(Exchange& ex) {
    if (!ex.settings().web_cabinet_enabled) throw forbidden("web cabinet is disabled", "web_cabinet_off");
}

EmailLink email_link_for(Exchange& ex) {
    require_web_cabinet(ex);
    return EmailLink(ex.settings(), ex.shared.passwords, ex.io.db, ex.io.redis);
}

void write_ok_email(Exchange& ex, const std::string& email) { JsonObject(ex.resp.json()).put("ok", true).put("email", email); }

// An e-mail as the answers show it: null when there is none.
std::optional<std::string_view> email_or_null(const std::string& email) {
    if (email.empty()) return std::nullopt;
    return email;
}

}  // namespace

void get_linked(Exchange& ex) {
    const int64_t user_id = ex.caller().user.id;
    const auto [profile, oauth] = linked_logins(ex.io.db, user_id);
    if (!profile) throw unauthorized("user not found");
    JsonObject o(ex.resp.json());
    o.put("email", email_or_null(profile->email));
    o.put("email_verified", profile->email_verified).put("has_password", profile->has_password);
    if (profile->telegram_id) o.object("telegram").put("id", *profile->telegram_id).put("username", profile->username);
    else o.null("telegram");
    {
        auto links = o.array("oauth");
        for (const auto& l : oauth)
            links.object().put("provider", l.provider).put("email", email_or_null(l.email)).put("display_name", l.display_name);
    }
    {
        auto available = o.array("available_providers");
        for (const auto& p : ex.shared.oauth_providers) {
            const bool linked = std::any_of(oauth.begin(), oauth.end(), [&](const OAuthLink& l) { return l.provider == p; });
            if (!linked) available.add(p);
        }
    }
    o.put("bot_username", ex.settings().bot_username);
}

void post_link_email(Exchange& ex) {
    EmailLink link = email_link_for(ex);
    const JsonBody body(ex.req);
    const auto email = normalize_email(require_string(body, "email", 3, 254));
    if (!email) throw bad_request("email is not a valid e-mail address", "invalid_email");
    const std::string password = require_string(body, "password", 8, 128);
    link.request(ex.caller().user.id, ex.req.remote_addr, *email, password, ex.caller().user.language);
    write_ok_email(ex, *email);
}

void post_link_email_confirm(Exchange& ex) {
    EmailLink link = email_link_for(ex);
    const JsonBody body(ex.req);
    // Codes are 6 digits; anything else is just a wrong code (and counts as one).
    const std::string code = require_string(body, "code", 1, 16);
    write_ok_email(ex, link.confirm(ex.caller().user.id, code));
}

void post_link_telegram(Exchange& ex) {
    require_web_cabinet(ex);
    const User& u = ex.caller().user;
    const JsonBody body(ex.req);
    // Our page asks to approve the Telegram account in the browser; a client that does not
    // (the original's) gets a code that merges on the bot's Confirm, as before.
    const bool approve = has_field(body, "approve_in_browser") && require_bool(body, "approve_in_browser");
    if (u.telegram_id) throw ApiError(409, "this account is linked to Telegram already", "telegram_linked");
    CodeStarter starter = code_starter(ex.req);
    starter.needs_approval = approve;
    const TelegramCodeOffer offer = start_telegram_link(ex.io.db, ex.settings(), u.id, starter);
    JsonObject o(ex.resp.json());
    o.put("ok", true).put("url", offer.url).put("expires_in", offer.expires_in);
    if (approve) o.put("code", offer.code);
}

// The page of a link that needs its approval asks who confirmed it in the bot.
void post_link_telegram_status(Exchange& ex) {
    require_web_cabinet(ex);
    const JsonBody body(ex.req);
    const LinkWait wait = link_wait(ex.io.db, require_string(body, "code", 1, 256), ex.caller().user.id);
    JsonObject o(ex.resp.json());
    o.put("state", wait.confirmed ? "confirmed" : "waiting");
    if (wait.confirmed) write_code_confirmer(o.key("telegram"), wait.telegram);
    else o.null("telegram");
}

// "Yes, that is my Telegram account" merges this web account into it (this session ends
// with the web account); "no" ends the code.
void post_link_telegram_approve(Exchange& ex) {
    require_web_cabinet(ex);
    const JsonBody body(ex.req);
    const std::string code = require_string(body, "code", 1, 256);
    const bool approve = require_bool(body, "approve");
    const int64_t me = ex.caller().user.id;
    bool linked = false;
    if (!approve) {
        if (!decline_link(ex.io.db, code, me)) throw bad_request("link code is invalid, used or expired", "link_invalid");
    } else {
        switch (approve_telegram_link(ex.io.db, ex.io.panel, code, me)) {
            case MergeOutcome::linked: linked = true; break;
            case MergeOutcome::expired: throw bad_request("link code is invalid, used or expired", "link_invalid");
            case MergeOutcome::same_account:
            case MergeOutcome::already_linked: throw ApiError(409, "this account is linked to Telegram already", "telegram_linked");
            case MergeOutcome::email_conflict:
                throw ApiError(409, "that Telegram account already has another e-mail; nothing was changed", "telegram_other_email");
            case MergeOutcome::blocked: throw forbidden("user is blocked", "user_blocked");
        }
    }
    JsonObject(ex.resp.json()).put("ok", true).put("linked", linked);
}

}  // namespace cabinet::api
