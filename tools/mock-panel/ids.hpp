#pragma once
// Identifiers the panel hands out, and the format checks the contract applies to them.
#include <string>
#include <string_view>

namespace mock {

std::string new_uuid();        // random RFC 4122 version 4, lowercase
std::string new_short_uuid();  // 16 characters, URL-safe: the subscription link's key
std::string new_password();    // for trojanPassword / ssPassword (8..32 characters)
// zod's `.uuid()`: 8-4-4-4-12 hex digits, either case.
bool is_uuid(std::string_view s);

}  // namespace mock
