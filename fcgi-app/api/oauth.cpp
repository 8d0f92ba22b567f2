// OAuth login and linking of the web cabinet (SPEC-GAPS "Auth and sessions", "Cabinet
// shapes"; services/oauth_login.hpp):
//   GET    /api/cabinet/auth/oauth/{provider}/authorize   → {authorize_url, state}
//   POST   /api/cabinet/auth/oauth/callback {provider, code, state[, device_id]} → session
//   DELETE /api/cabinet/link/oauth/{provider}             → {ok, unlinked}
#include "api/handlers.hpp"
#include "api/web_session.hpp"
#include "app/authenticate.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/oauth_login.hpp"
#include "util/web_tokens.hpp"

namespace cabinet::api {
namespace {

// Unknown and switched-off providers look the same: there is nothing at that address.
oauth::Provider enabled_provider(Exchange& ex, const std::string& name) {
    const auto p = oauth::parse_provider(name);
    if (!p || !oauth::provider_enabled(ex.settings(), *p)) throw not_found("unknown OAuth provider");
    return *p;
}

// The signed-in caller, when the request carries a credential; 0 otherwise.
int64_t optional_caller(Exchange& ex) {
    if (ex.req.authorization.empty()) return 0;
    authenticate(ex, AuthKind::tma_or_jwt);
    return ex.caller().user.id;
}

}  // namespace

void get_auth_oauth_authorize(Exchange& ex) {
    web_auth_for(ex);  // 403 when the web cabinet is off
    const oauth::Provider p = enabled_provider(ex, ex.req.path_params.at(0));
    // Public route; a caller who is signed in (mini-app or web) links instead of logging in.
    const int64_t link_user = optional_caller(ex);
    // The state is bound to this browser: a value kept in a cookie only it sends back (one
    // per browser, reused, so two tabs signing in at once both work).
    const OAuthStart start = OAuthLogin(ex.settings(), ex.io.db).start(p, link_user, bind_browser(ex));
    JsonObject(ex.resp.json()).put("authorize_url", start.authorize_url).put("state", start.state);
}

void post_auth_oauth_callback(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const auto p = oauth::parse_provider(require_string(body, "provider", 1, 16));
    if (!p || !oauth::provider_enabled(ex.settings(), *p)) throw bad_request("unknown OAuth provider");
    oauth::CodeGrant grant;
    grant.code = require_string(body, "code", 1, 2048);
    grant.state = require_string(body, "state", 1, 256);
    grant.device_id = optional_string(body, "device_id", 512).value_or(std::string());
    // Link mode must be finished by the account that started it, so its credential is read too.
    const int64_t caller = optional_caller(ex);
    write_session(ex, OAuthLogin(ex.settings(), ex.io.db).complete(auth, *p, grant, browser_binding(ex.req), caller));
}

void delete_link_oauth(Exchange& ex) {
    const auto p = oauth::parse_provider(ex.req.path_params.at(0));
    if (!p) throw not_found(ex.req.path_params.at(0) + " is not linked");
    OAuthLogin(ex.settings(), ex.io.db).unlink(ex.caller().user.id, *p, ex.session_id);
    JsonObject(ex.resp.json()).put("ok", true).put("unlinked", oauth::provider_name(*p));
}

}  // namespace cabinet::api
