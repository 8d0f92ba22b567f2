#include "backup/schedule.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace cabinet::backup {
namespace {

int64_t floor_div(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int to_int(std::string_view s) {
    int n = 0;
    for (char c : s) n = n * 10 + (c - '0');
    return n;
}

}  // namespace

std::optional<int> parse_time_of_day(std::string_view t) {
    if (t.size() != 5 || t[2] != ':' || !all_digits(t.substr(0, 2)) || !all_digits(t.substr(3, 2))) return std::nullopt;
    const int h = to_int(t.substr(0, 2)), m = to_int(t.substr(3, 2));
    if (h > 23 || m > 59) return std::nullopt;
    return h * 60 + m;
}

int64_t last_scheduled_at(int64_t now_utc, int minutes_msk) {
    const int64_t local = now_utc + kMoscowOffsetS;
    const int64_t day_start_local = floor_div(local, 86400) * 86400;
    int64_t at = day_start_local + int64_t(minutes_msk) * 60 - kMoscowOffsetS;
    if (at > now_utc) at -= 86400;
    return at;
}

bool backup_due(int64_t now_utc, int minutes_msk, std::optional<int64_t> last_backup_utc) {
    const int64_t at = last_scheduled_at(now_utc, minutes_msk);
    return !last_backup_utc || *last_backup_utc < at;
}

std::string archive_name(int64_t utc_seconds) {
    const std::time_t t = static_cast<std::time_t>(utc_seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "cabinet-%04d%02d%02dT%02d%02d%02dZ.zip", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

std::optional<int64_t> parse_archive_name(std::string_view n) {
    // cabinet-YYYYMMDDTHHMMSSZ.zip
    constexpr std::string_view prefix = "cabinet-", suffix = "Z.zip";
    if (n.size() != prefix.size() + 15 + suffix.size()) return std::nullopt;
    if (n.substr(0, prefix.size()) != prefix || n.substr(n.size() - suffix.size()) != suffix) return std::nullopt;
    const std::string_view ts = n.substr(prefix.size(), 15);
    if (ts[8] != 'T' || !all_digits(ts.substr(0, 8)) || !all_digits(ts.substr(9, 6))) return std::nullopt;
    std::tm tm{};
    tm.tm_year = to_int(ts.substr(0, 4)) - 1900;
    tm.tm_mon = to_int(ts.substr(4, 2)) - 1;
    tm.tm_mday = to_int(ts.substr(6, 2));
    tm.tm_hour = to_int(ts.substr(9, 2));
    tm.tm_min = to_int(ts.substr(11, 2));
    tm.tm_sec = to_int(ts.substr(13, 2));
    if (tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60)
        return std::nullopt;
    const int64_t t = timegm(&tm);
    if (archive_name(t) != n) return std::nullopt;  // rejects 31 February and the like
    return t;
}

std::vector<std::string> archives_to_delete(const std::vector<std::string>& file_names, int64_t keep_last) {
    std::vector<std::pair<int64_t, std::string>> archives;
    for (const auto& n : file_names)
        if (auto t = parse_archive_name(n)) archives.emplace_back(*t, n);
    std::sort(archives.begin(), archives.end());
    std::vector<std::string> out;
    const int64_t extra = int64_t(archives.size()) - std::max<int64_t>(keep_last, 0);
    for (int64_t i = 0; i < extra; ++i) out.push_back(archives[size_t(i)].second);
    return out;
}

}  // namespace cabinet::backup
