// OAuth login and linking of the web cabinet (SPEC-GAPS "Auth and sessions", "Cabinet
// shapes"; services/oauth_login.hpp):
//   GET    /api/cabinet/auth/oauth/{provider}/authorize   → {authorize_url, state}
//   POST   /api/cabinet/auth/oauth/callback {provider, code, state[, device_id]} → session
//   DELETE /api/cabinet/link/oauth/{provider}             → {ok, unlinked}
#include "api/handlers.hpp"
#include "api/web_session.hpp"
#include "auth/authenticate.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/oauth_login.hpp"

namespace cabinet::api {
namespace {

// Unknown and switched-off providers look the same: there is nothing at that address.
oauth::Provider enabled_provider(Exchange& ex, const std::string& name) {
    const auto p = oauth::parse_provider(name);
    if (!p || !oauth::provider_enabled(ex.settings(), *p)) throw not_found("unknown OAuth provider");
    return *p;
}

}  // namespace

void get_auth_oauth_authorize(Exchange& ex) {
    web_auth_for(ex);  // 403 when the web cabinet is off
    const oauth::Provider p = enabled_provider(ex, ex.req.path_params.at(0));
    // Public route; a caller who is signed in (mini-app or web) links instead of logging in.
    int64_t link_user = 0;
    if (!ex.req.authorization.empty()) {
        authenticate(ex, AuthKind::tma_or_jwt);
        link_user = ex.caller().user.id;
    }
    const OAuthStart start = OAuthLogin(ex.settings(), ex.io.db).start(p, link_user);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("authorize_url");
    write_string(w, start.authorize_url);
    w.Key("state");
    write_string(w, start.state);
    w.EndObject();
}

void post_auth_oauth_callback(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const auto body = json_body(ex.req);
    const auto p = oauth::parse_provider(require_string(body, "provider", 1, 16));
    if (!p || !oauth::provider_enabled(ex.settings(), *p)) throw bad_request("unknown OAuth provider");
    oauth::CodeGrant grant;
    grant.code = require_string(body, "code", 1, 2048);
    grant.state = require_string(body, "state", 1, 256);
    grant.device_id = optional_string(body, "device_id", 512).value_or(std::string());
    write_session(ex, OAuthLogin(ex.settings(), ex.io.db).complete(auth, *p, grant));
}

void delete_link_oauth(Exchange& ex) {
    const auto p = oauth::parse_provider(ex.req.path_params.at(0));
    if (!p) throw not_found(ex.req.path_params.at(0) + " is not linked");
    OAuthLogin(ex.settings(), ex.io.db).unlink(ex.caller().user.id, *p);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("unlinked");
    w.String(oauth::provider_name(*p));
    w.EndObject();
}

}  // namespace cabinet::api
