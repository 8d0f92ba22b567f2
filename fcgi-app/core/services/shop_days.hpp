#pragma once
// The shop's days (SHOP_TIMEZONE) as Unix seconds, for the date filters of the owner's lists
// (customers joined, payments made; api/admin_lists.hpp): what the Overview counts by, and
// what the owner means by "1 December". PostgreSQL knows the zones, so it converts.
#include <cstdint>
#include <optional>
#include <string>

#include "db/db.hpp"

namespace cabinet {

// [start of the first day, end of the last day); an end absent stays open.
struct DayRange {
    std::optional<int64_t> from, until;
};

// `from`, `to`: checked dates ("2026-01-31"). Neither given: no read.
DayRange shop_day_range(Db& db, const std::string& time_zone, const std::optional<std::string>& from,
                        const std::optional<std::string>& to);

}  // namespace cabinet
