#pragma once
// What every web-cabinet login endpoint shares (e-mail, Telegram web login, OAuth): the
// switch that turns the whole surface off, and the session answer (SPEC-GAPS "Session").
#include "app/context.hpp"
#include "db/linking_repo.hpp"
#include "services/web_auth.hpp"

namespace cabinet::api {

// The web sessions service for this request; 403 "web cabinet is disabled" unless
// WEB_CABINET_ENABLED, before anything is parsed or counted.
WebAuth web_auth_for(Exchange& ex);

// {access_token, refresh_token, token_type: "bearer", expires_in, user: {id, email, email_verified}}
void write_session(Exchange& ex, const WebSession& s);

// The browser asking for a Telegram code (IP as nginx saw it, user agent cut to 200
// characters), for the bot's "only if you started this yourself" prompt.
CodeStarter code_starter(const Request& req);

}  // namespace cabinet::api
