#pragma once
// Requests of the owner's cabinet as each staff role sends them (ADMIN_IDS, SUPPORT_IDS and
// VIEWER_IDS of the test stack), with an Idempotency-Key when one is given.
#include "support.hpp"

namespace it {

inline HttpResult as(const std::string& auth, const std::string& method, const std::string& path,
                     const std::string& body = {}, const std::string& key = {}) {
    std::vector<std::string> headers{auth, kJsonContentType};
    if (!key.empty()) headers.push_back("Idempotency-Key: " + key);
    return http(method, path, headers, body);
}
inline HttpResult owner(const std::string& method, const std::string& path, const std::string& body = {},
                        const std::string& key = {}) {
    return as(admin_auth(), method, path, body, key);
}
inline std::string support_auth() { return tma_header(100000002, "Support"); }
inline std::string viewer_auth() { return tma_header(100000003, "Viewer"); }

}  // namespace it
