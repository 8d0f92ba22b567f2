#pragma once
#include "app/context.hpp"
#include "errors.hpp"

namespace cabinet {

// Runs one request: CORS, route, authentication, handler. Every error becomes a response
// here and nowhere else: ApiError -> its status + {"detail", "code"}, a lost database ->
// 503, anything unexpected -> 500 with an error id that is also in the log.
void dispatch(Exchange& ex);

// An error answer: {"detail", "code"} (errors.hpp; an empty code is the status's). Also for
// a request that could not even be read (server.cpp).
void write_error(Response& resp, int status, std::string_view detail, std::string_view code = {});
// The same for an ApiError, with its headers (Retry-After, Allow).
void write_error(Response& resp, const ApiError& e);

// How WEB__CORS_ORIGINS admits an Origin: not at all, by name (its pages may send
// credentials), or only through "*" (any site, never with credentials).
enum class CorsGrant { none, named, any };
CorsGrant cors_grant(const Settings& s, const std::string& origin);

// CORS headers for an admitted Origin: a named one is echoed with Allow-Credentials; one
// admitted by "*" gets "Access-Control-Allow-Origin: *" and no Allow-Credentials (issue 49).
void apply_cors(const Settings& s, const Request& req, Response& resp);

}  // namespace cabinet
