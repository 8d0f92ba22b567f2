#pragma once
#include "app/context.hpp"

namespace cabinet {

// Runs one request: CORS, route, authentication, handler. Every error becomes a response
// here and nowhere else: ApiError -> its status + {"detail"}, a lost database -> 503,
// anything unexpected -> 500 with an error id that is also in the log.
void dispatch(Exchange& ex);

// CORS headers for an allowed Origin (exact match, or "*" in WEB__CORS_ORIGINS).
void apply_cors(const Settings& s, const Request& req, Response& resp);

}  // namespace cabinet
