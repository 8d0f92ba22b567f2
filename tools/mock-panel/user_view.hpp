#pragma once
// A user and its devices as the API shows them (contract ExtendedUsersSchema and
// HwidUserDeviceSchema).
#include <string>

#include "json_output.hpp"
#include "user.hpp"

namespace mock {

// "<public url>/sub/<shortUuid>": the link a client imports; served by this process.
std::string subscription_url(const std::string& public_url, const User& u);

void write_api_user(JsonWriter& w, const User& u, const std::string& public_url, int64_t now_ms);
// HWID device list answer: {"total", "devices"}.
void write_device_list(JsonWriter& w, const User& u);

}  // namespace mock
