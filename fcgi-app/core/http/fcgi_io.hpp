#pragma once
// Translation between libfcgi and Request/Response.
#include <fcgiapp.h>

#include "http/request.hpp"
#include "http/response.hpp"

namespace cabinet {

// Fills `req` from the params and body of `r`. Throws ApiError 413 when CONTENT_LENGTH is
// above the body limit for its path (http/body_limits.hpp; `max_body`: MAX_BODY_BYTES), 400
// when it is not a number or the body ends early.
void read_request(FCGX_Request& r, int64_t max_body, Request& req);
void write_response(FCGX_Request& r, const Request& req, const Response& resp);
// Ends the exchange. A connection nginx does not keep is closed without waiting for nginx to
// close its end (FCGX_Finish_r alone would): see the definition; one it keeps stays open in
// `r` (http/fcgi_connections.hpp hands it back to the set).
void finish_request(FCGX_Request& r);

}  // namespace cabinet
