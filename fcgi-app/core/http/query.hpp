#pragma once
// Query-string parameters (application/x-www-form-urlencoded after '?').
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

// The first value of `name`, decoded; nullopt when absent. A bad %-escape or a value that
// is not UTF-8 is a 400 naming it.
std::optional<std::string> query_param(std::string_view query, std::string_view name);

// An integer parameter in [min, max]; nullopt when absent; a 400 naming it otherwise.
std::optional<int64_t> query_int(std::string_view query, std::string_view name, int64_t min, int64_t max);

// The value of cookie `name` in a Cookie header ("a=1; b=2"), as sent (no decoding);
// nullopt when absent.
std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name);

}  // namespace cabinet
