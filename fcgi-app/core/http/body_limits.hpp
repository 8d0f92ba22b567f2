#pragma once
// How large a request body may be. Every request: MAX_BODY_BYTES (settings; nginx's
// client_max_body_size 64k). The owner's app-config values outgrow it: a landing FAQ of 30
// questions with answers of 2,000 characters is up to 130 KB of Cyrillic. PUTs under this
// prefix (admins only) may send up to kAppConfigBodyBytes, as their nginx location allows
// (nginx/cabinet_locations.conf).
#include <algorithm>
#include <cstdint>
#include <string_view>

namespace cabinet {

inline constexpr std::string_view kAppConfigPathPrefix = "/api/admin/app-config/";
inline constexpr int64_t kAppConfigBodyBytes = 1024 * 1024;

// The largest body accepted for `method` `path` when MAX_BODY_BYTES is `max_body`.
inline int64_t body_limit(std::string_view method, std::string_view path, int64_t max_body) {
    const bool app_config = method == "PUT" && path.starts_with(kAppConfigPathPrefix);
    return app_config ? std::max(max_body, kAppConfigBodyBytes) : max_body;
}

}  // namespace cabinet
