#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

inline constexpr int64_t kSecondsPerDay = 86400;

int64_t unix_now();
// 2026-11-21T20:44:24Z
std::string iso8601_utc(int64_t unix_seconds);
// ISO-8601 date-time as the panel's contract accepts it: Z, ±HH:MM / ±HHMM / ±HH offsets or
// no zone (read as UTC), any fraction digits. Milliseconds since the epoch; nullopt otherwise.
std::optional<int64_t> parse_iso8601_ms(std::string_view text);
// The same in whole seconds (floored).
std::optional<int64_t> parse_iso8601(std::string_view text);

}  // namespace cabinet
