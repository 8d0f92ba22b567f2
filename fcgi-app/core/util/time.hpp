#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

int64_t unix_now();
// 2026-11-21T20:44:24Z
std::string iso8601_utc(int64_t unix_seconds);
// 2026-11-21T20:44:24Z, with optional fraction and a Z or +HH:MM offset; nullopt otherwise.
std::optional<int64_t> parse_iso8601(std::string_view text);

}  // namespace cabinet
