#pragma once
// Bytes on a socket to the stack's nginx, for requests curl refuses to send (broken request
// lines and headers, lying Content-Length, unknown transfer codings).
#include <string>

#include "support.hpp"

namespace it {

// Sends `request` as it is to 127.0.0.1:HTTP_PORT and reads until nginx closes (add
// "Connection: close" to a complete request). Status 0 when no status line came back.
HttpResult raw_http(const std::string& request);

}  // namespace it
