#pragma once
#include "app/context.hpp"

namespace cabinet {

// Runs one request: CORS, route, authentication, handler. Every error becomes a response
// here and nowhere else: ApiError -> its status + {"detail"}, a lost database -> 503,
// anything unexpected -> 500 with an error id that is also in the log.
void dispatch(Exchange& ex);

// How WEB__CORS_ORIGINS admits an Origin: not at all, by name (its pages may send
// credentials), or only through "*" (any site, never with credentials).
enum class CorsGrant { none, named, any };
CorsGrant cors_grant(const Settings& s, const std::string& origin);

// CORS headers for an admitted Origin: a named one is echoed with Allow-Credentials; one
// admitted by "*" gets "Access-Control-Allow-Origin: *" and no Allow-Credentials (issue 49).
void apply_cors(const Settings& s, const Request& req, Response& resp);

}  // namespace cabinet
