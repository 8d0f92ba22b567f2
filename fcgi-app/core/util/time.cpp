#include "util/time.hpp"

#include <chrono>
#include <ctime>

namespace cabinet {

int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string iso8601_utc(int64_t unix_seconds) {
    const std::time_t t = static_cast<std::time_t>(unix_seconds);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::optional<int64_t> parse_iso8601(std::string_view t) {
    auto digits = [&](size_t pos, size_t n, int& out) {
        if (pos + n > t.size()) return false;
        out = 0;
        for (size_t i = pos; i < pos + n; ++i) {
            if (t[i] < '0' || t[i] > '9') return false;
            out = out * 10 + (t[i] - '0');
        }
        return true;
    };
    int y, mo, d, h, mi, s;
    if (!digits(0, 4, y) || t.size() < 19 || t[4] != '-' || !digits(5, 2, mo) || t[7] != '-' || !digits(8, 2, d) ||
        (t[10] != 'T' && t[10] != ' ') || !digits(11, 2, h) || t[13] != ':' || !digits(14, 2, mi) || t[16] != ':' ||
        !digits(17, 2, s))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
    size_t pos = 19;
    if (pos < t.size() && t[pos] == '.') {
        ++pos;
        while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9') ++pos;
    }
    int offset = 0;
    if (pos < t.size() && t[pos] == 'Z') {
        ++pos;
    } else if (pos < t.size() && (t[pos] == '+' || t[pos] == '-')) {
        int oh, om;
        if (!digits(pos + 1, 2, oh) || pos + 3 >= t.size() || t[pos + 3] != ':' || !digits(pos + 4, 2, om))
            return std::nullopt;
        offset = (oh * 3600 + om * 60) * (t[pos] == '-' ? -1 : 1);
        pos += 6;
    }
    if (pos != t.size()) return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return static_cast<int64_t>(timegm(&tm)) - offset;
}

}  // namespace cabinet
