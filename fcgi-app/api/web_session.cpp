#include "api/web_session.hpp"

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet::api {

WebAuth web_auth_for(Exchange& ex) {
    if (!ex.settings().web_cabinet_enabled) throw forbidden("web cabinet is disabled");
    return WebAuth(ex.settings(), ex.shared.jwt, ex.shared.passwords, ex.io.db, ex.io.redis);
}

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

CodeStarter code_starter(const Request& req) {
    // The browser's claim is shown in the bot's prompt and stored: bytes that are not UTF-8
    // (PostgreSQL refuses them) make it "an unknown browser" rather than a 500.
    const std::string_view ua = valid_utf8(req.user_agent) ? std::string_view(req.user_agent) : std::string_view();
    return {req.remote_addr.substr(0, 64), std::string(utf8_prefix(ua, 200))};
}

}  // namespace cabinet::api
