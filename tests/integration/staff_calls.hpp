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
// A fresh Idempotency-Key for one action of the owner's cabinet.
inline std::string new_key() { return "key-" + std::to_string(fresh_telegram_id()); }
inline HttpResult owner(const std::string& method, const std::string& path, const std::string& body = {},
                        const std::string& key = {}) {
    return as(admin_auth(), method, path, body, key);
}
// The shop's time zone as the owner's settings have it now (SHOP_TIMEZONE).
inline std::string shop_zone() {
    const auto r = owner("GET", "/api/admin/settings");
    const rapidjson::Document d = r.json();
    for (const auto& item : d["items"].GetArray())
        if (str(item["name"]) == "SHOP_TIMEZONE") return str(item["value"]);
    return "UTC";
}
// Today in the shop's zone, "2026-01-31": the day the owner's date filters mean by it.
inline std::string shop_today() {
    const std::string d = str(count("SELECT to_char(now() AT TIME ZONE '" + shop_zone() + "', 'YYYYMMDD')::bigint"));
    return d.substr(0, 4) + "-" + d.substr(4, 2) + "-" + d.substr(6, 2);
}

inline std::string support_auth() { return tma_header(100000002, "Support"); }
inline std::string viewer_auth() { return tma_header(100000003, "Viewer"); }

}  // namespace it
