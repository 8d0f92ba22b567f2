// GET /api/cabinet/linked, POST /api/cabinet/link/{email,email/confirm,telegram}: the ways
// into an account and linking more of them (SPEC-GAPS "Cabinet shapes"; docs/decisions.md
// "Telegram web login and account linking (issue 7)").
#include <algorithm>

#include "api/handlers.hpp"
#include "api/web_session.hpp"
#include "db/linking_repo.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/account_merge.hpp"
#include "services/email_link.hpp"
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

void write_ok_email(Exchange& ex, const std::string& email) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("email");
    write_string(w, email);
    w.EndObject();
}

}  // namespace

void get_linked(Exchange& ex) {
    const int64_t user_id = ex.caller().user.id;
    const auto [profile, oauth] = ex.io.db.read([&](auto& txn) {
        return std::make_pair(find_linked_profile(txn, user_id), oauth_links_of(txn, user_id));
    });
    if (!profile) throw unauthorized("user not found");
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("email");
    if (profile->email.empty()) w.Null();
    else write_string(w, profile->email);
    w.Key("email_verified");
    w.Bool(profile->email_verified);
    w.Key("has_password");
    w.Bool(profile->has_password);
    w.Key("telegram");
    if (!profile->telegram_id) {
        w.Null();
    } else {
        w.StartObject();
        w.Key("id");
        w.Int64(*profile->telegram_id);
        w.Key("username");
        write_string(w, profile->username);
        w.EndObject();
    }
    w.Key("oauth");
    w.StartArray();
    for (const auto& o : oauth) {
        w.StartObject();
        w.Key("provider");
        write_string(w, o.provider);
        w.Key("email");
        if (o.email.empty()) w.Null();
        else write_string(w, o.email);
        w.Key("display_name");
        write_string(w, o.display_name);
        w.EndObject();
    }
    w.EndArray();
    w.Key("available_providers");
    w.StartArray();
    for (const auto& p : ex.shared.oauth_providers) {
        const bool linked = std::any_of(oauth.begin(), oauth.end(), [&](const OAuthLink& o) { return o.provider == p; });
        if (!linked) write_string(w, p);
    }
    w.EndArray();
    w.Key("bot_username");
    write_string(w, ex.settings().bot_username);
    w.EndObject();
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
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("url");
    write_string(w, offer.url);
    w.Key("expires_in");
    w.Int64(offer.expires_in);
    if (approve) {
        w.Key("code");
        write_string(w, offer.code);
    }
    w.EndObject();
}

// The page of a link that needs its approval asks who confirmed it in the bot.
void post_link_telegram_status(Exchange& ex) {
    require_web_cabinet(ex);
    const JsonBody body(ex.req);
    const LinkWait wait = link_wait(ex.io.db, require_string(body, "code", 1, 256), ex.caller().user.id);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("state");
    w.String(wait.confirmed ? "confirmed" : "waiting");
    w.Key("telegram");
    if (!wait.confirmed) w.Null();
    else write_code_confirmer(w, wait.telegram);
    w.EndObject();
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
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("linked");
    w.Bool(linked);
    w.EndObject();
}

}  // namespace cabinet::api
