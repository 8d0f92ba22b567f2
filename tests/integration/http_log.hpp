#pragma once
// The exchanges of the integration suite with the stack, kept for the OpenAPI check
// (tests/openapi/check.mjs validates each answer against docs/openapi.yaml).
#include <string>

#include "support.hpp"

namespace it {

// Appends one JSON line {method, path, request_body, status, content_type, retry_after, body}
// to the file named by CABINET_HTTP_LOG (tools/stack test sets it); nothing when it is unset
// or `url` is not the stack's nginx (the mock panel, the fakes).
void log_exchange(const std::string& method, const std::string& url, const std::string& request_body,
                  const HttpResult& result);

}  // namespace it
