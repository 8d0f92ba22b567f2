#pragma once
// Query-string parameters (application/x-www-form-urlencoded after '?').
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

// The first value of `name`, decoded; nullopt when absent. A bad %-escape is a 400 naming it.
std::optional<std::string> query_param(std::string_view query, std::string_view name);

}  // namespace cabinet
