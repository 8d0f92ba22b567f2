#pragma once
// One HTTP request as the pool sees it: the FastCGI params we use, copied (libfcgi's
// pointers die at the next Accept), and the body read up to the configured cap.
#include <string>
#include <string_view>
#include <vector>

namespace cabinet {

struct Request {
    std::string method;
    std::string path;   // raw path from REQUEST_URI, still percent-encoded
    std::string query;  // after '?', raw
    std::string request_id;
    std::string remote_addr;
    std::string authorization;
    std::string origin;
    std::string user_agent;
    std::string cookie;  // the Cookie header, raw (only the OAuth browser binding reads it)
    std::string content_type;
    std::string idempotency_key;
    std::string telegram_secret_token;
    std::string crypto_pay_signature;  // crypto-pay-api-signature (CryptoBot webhook)
    std::string cors_request_method;   // Access-Control-Request-Method (preflight)
    std::string cors_request_headers;  // Access-Control-Request-Headers (preflight)
    std::string body;
    // Values of {placeholders} of the matched route, percent-decoded, in order.
    std::vector<std::string> path_params;
};

}  // namespace cabinet
