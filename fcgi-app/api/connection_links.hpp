#pragma once
// Import links of the supported VPN client apps (SPEC-GAPS "GET /connection").
#include <optional>
#include <string_view>

#include "app/context.hpp"
#include "domain/account.hpp"

namespace cabinet::api {

// {"happ": ..., "v2raytun": ..., "hiddify": ..., "streisand": ...}; happ uses the panel's
// crypto link when it has one.
void write_deep_links(JsonWriter& w, const std::string& subscription_url, const std::string& crypto_link);
// [{key, label, deep_link, stores}] for the apps in CONNECTION_APPS, in that order.
void write_apps(JsonWriter& w, const Settings& s, const std::string& subscription_url, const std::string& crypto_link);

// The reverse of the plain deep links above, for GET /dl: "hiddify://import/<url>" gives
// scheme "hiddify" and <url>; nullopt for anything that is not such an import link.
struct ImportLink {
    std::string scheme;
    std::string subscription_url;
};
std::optional<ImportLink> parse_import_link(std::string_view link);

}  // namespace cabinet::api
