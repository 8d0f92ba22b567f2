#pragma once
// A user and its devices as the API shows them (contract ExtendedUsersSchema and
// HwidUserDeviceSchema).
#include <string>
#include <string_view>

#include "json_output.hpp"
#include "user.hpp"

namespace mock {

// "<public url>/sub/<shortUuid>": the link a client imports; served by this process.
std::string subscription_url(const std::string& public_url, const User& u);

// The scalar fields of a user and of a device, as the contract names them. The API view and
// the state file's record both write them, so the file keeps reading like the API; the
// status is the caller's (the view derives it from the clock, the file stores it).
void write_user_fields(JsonWriter& w, const User& u, std::string_view status);
void write_device_fields(JsonWriter& w, const Device& d);

void write_api_user(JsonWriter& w, const User& u, const std::string& public_url, int64_t now_ms);
// HWID device list answer: {"total", "devices"}.
void write_device_list(JsonWriter& w, const User& u);

}  // namespace mock
