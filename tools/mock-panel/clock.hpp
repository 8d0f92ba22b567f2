#pragma once
// Millisecond timestamps in the panel's ISO-8601 form ("2025-01-17T15:38:45.065Z"): the
// contract's zod `.datetime()` wants UTC with a trailing Z, which is what we always write.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mock {

int64_t now_ms();
std::string iso_ms(int64_t unix_ms);
// Accepts what the contract's request schemas accept (`datetime({offset: true, local: true})`):
// Z, ±HH:MM / ±HHMM / ±HH offsets, or no zone at all (read as UTC), any fraction digits.
std::optional<int64_t> parse_iso_ms(std::string_view text);

}  // namespace mock
