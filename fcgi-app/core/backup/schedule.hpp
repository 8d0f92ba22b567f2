#pragma once
// Pure rules of the backups (issue 6): archive names, the daily schedule and retention.
// No I/O here, so the unit tests cover them without a clock or a disk.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cabinet::backup {

// Moscow time is UTC+3 all year (no DST since 2014).
constexpr int64_t kMoscowOffsetS = 3 * 3600;

// "HH:MM" -> minutes after midnight; nullopt when not a valid time of day.
std::optional<int> parse_time_of_day(std::string_view hhmm);

// The latest scheduled instant (UTC seconds) not after `now_utc`: today's BACKUP_TIME in
// Moscow when it has passed, else yesterday's.
int64_t last_scheduled_at(int64_t now_utc, int minutes_msk);

// Due when BACKUP_TIME (Moscow) has passed today and no backup was made since then.
// `last_backup_utc` is the time of the newest archive, nullopt when there is none.
bool backup_due(int64_t now_utc, int minutes_msk, std::optional<int64_t> last_backup_utc);

// "cabinet-20261121T224651Z.zip" for that UTC second; parse returns nullopt for any other name.
std::string archive_name(int64_t utc_seconds);
std::optional<int64_t> parse_archive_name(std::string_view file_name);

// Of `file_names` (any names; only archive names count), the archives to delete so that
// the newest `keep_last` remain; oldest first.
std::vector<std::string> archives_to_delete(const std::vector<std::string>& file_names, int64_t keep_last);

}  // namespace cabinet::backup
