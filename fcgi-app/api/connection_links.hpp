#pragma once
// Import links of the supported VPN client apps (SPEC-GAPS "GET /connection").
#include "app/context.hpp"
#include "domain/account.hpp"

namespace cabinet::api {

// {"happ": ..., "v2raytun": ..., "hiddify": ..., "streisand": ...}; happ uses the panel's
// crypto link when it has one.
void write_deep_links(JsonWriter& w, const std::string& subscription_url, const std::string& crypto_link);
// [{key, label, deep_link, stores}] for the apps in CONNECTION_APPS, in that order.
void write_apps(JsonWriter& w, const Settings& s, const std::string& subscription_url, const std::string& crypto_link);

}  // namespace cabinet::api
