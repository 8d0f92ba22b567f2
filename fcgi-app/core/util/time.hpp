#pragma once
#include <cstdint>
#include <string>

namespace cabinet {

int64_t unix_now();
// 2026-11-21T20:44:24Z
std::string iso8601_utc(int64_t unix_seconds);

}  // namespace cabinet
