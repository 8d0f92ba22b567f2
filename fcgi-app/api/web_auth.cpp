// POST /api/cabinet/auth/{register,verify,login,refresh,logout}: the web cabinet's e-mail
// accounts and sessions (SPEC-GAPS "Auth and sessions"; services/web_auth.hpp).
#include "api/handlers.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/web_auth.hpp"

namespace cabinet::api {
namespace {

WebAuth web_auth(Exchange& ex) {
    // Off means the whole surface is off, before anything is parsed or counted.
    if (!ex.settings().web_cabinet_enabled) throw forbidden("web cabinet is disabled");
    return WebAuth(ex.settings(), ex.shared.jwt, ex.shared.passwords, ex.io.db, ex.io.redis);
}

std::string require_email(const rapidjson::Value& body) {
    const auto email = normalize_email(require_string(body, "email", 3, 254));
    if (!email) throw bad_request("email is not a valid e-mail address");
    return *email;
}

// Tokens are base64url of 32 bytes (43 characters); a generous cap keeps hashing cheap.
std::string require_token(const rapidjson::Value& body, const char* field) { return require_string(body, field, 1, 256); }

void write_session(Exchange& ex, const WebSession& s) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("access_token");
    write_string(w, s.access_token);
    w.Key("refresh_token");
    write_string(w, s.refresh_token);
    w.Key("token_type");
    w.String("bearer");
    w.Key("expires_in");
    w.Int64(s.expires_in);
    w.Key("user");
    w.StartObject();
    w.Key("id");
    w.Int64(s.user_id);
    w.Key("email");
    write_string(w, s.email);
    w.Key("email_verified");
    w.Bool(s.email_verified);
    w.EndObject();
    w.EndObject();
}

void write_ok(Exchange& ex) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.EndObject();
}

}  // namespace

void post_auth_register(Exchange& ex) {
    WebAuth auth = web_auth(ex);
    const auto body = json_body(ex.req);
    const std::string email = require_email(body);
    const std::string password = require_string(body, "password", 8, 128);
    auth.register_account(ex.req.remote_addr, email, password);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("requires_verification");
    w.Bool(true);
    w.Key("email");
    write_string(w, email);
    w.EndObject();
}

void post_auth_verify(Exchange& ex) {
    WebAuth auth = web_auth(ex);
    const auto body = json_body(ex.req);
    write_session(ex, auth.verify(ex.req.remote_addr, require_token(body, "token")));
}

void post_auth_login(Exchange& ex) {
    WebAuth auth = web_auth(ex);
    const auto body = json_body(ex.req);
    const std::string email = require_email(body);
    // No length policy here beyond the cap: the policy is for new passwords only.
    const std::string password = require_string(body, "password", 1, 128);
    write_session(ex, auth.login(ex.req.remote_addr, email, password));
}

void post_auth_refresh(Exchange& ex) {
    WebAuth auth = web_auth(ex);
    const auto body = json_body(ex.req);
    write_session(ex, auth.refresh(require_token(body, "refresh_token")));
}

void post_auth_logout(Exchange& ex) {
    WebAuth auth = web_auth(ex);
    const auto body = json_body(ex.req);
    auth.logout(require_token(body, "refresh_token"));
    write_ok(ex);
}

}  // namespace cabinet::api
