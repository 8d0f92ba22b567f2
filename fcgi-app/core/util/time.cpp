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

namespace {

bool digits(std::string_view t, size_t pos, size_t n, int& out) {
    if (pos + n > t.size()) return false;
    out = 0;
    for (size_t i = pos; i < pos + n; ++i) {
        if (t[i] < '0' || t[i] > '9') return false;
        out = out * 10 + (t[i] - '0');
    }
    return true;
}

}  // namespace

std::optional<int64_t> parse_iso8601_ms(std::string_view t) {
    int y, mo, d, h, mi, s;
    if (t.size() < 19 || !digits(t, 0, 4, y) || t[4] != '-' || !digits(t, 5, 2, mo) || t[7] != '-' ||
        !digits(t, 8, 2, d) || t[10] != 'T' || !digits(t, 11, 2, h) || t[13] != ':' || !digits(t, 14, 2, mi) ||
        t[16] != ':' || !digits(t, 17, 2, s))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return std::nullopt;
    size_t pos = 19;
    int ms = 0;
    if (pos < t.size() && t[pos] == '.') {
        ++pos;
        const size_t start = pos;
        int scale = 100;
        while (pos < t.size() && t[pos] >= '0' && t[pos] <= '9') {
            ms += (t[pos] - '0') * scale;
            scale /= 10;
            ++pos;
        }
        if (pos == start) return std::nullopt;
    }
    int offset_s = 0;
    if (pos < t.size() && t[pos] == 'Z') {
        ++pos;
    } else if (pos < t.size() && (t[pos] == '+' || t[pos] == '-')) {
        const int sign = t[pos] == '-' ? -1 : 1;
        int oh = 0, om = 0;
        if (!digits(t, pos + 1, 2, oh)) return std::nullopt;
        pos += 3;
        if (pos < t.size() && t[pos] == ':') ++pos;
        if (pos < t.size()) {
            if (!digits(t, pos, 2, om)) return std::nullopt;
            pos += 2;
        }
        if (oh > 23 || om > 59) return std::nullopt;
        offset_s = sign * (oh * 3600 + om * 60);
    }
    if (pos != t.size()) return std::nullopt;
    std::tm tm{};
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = s;
    return (static_cast<int64_t>(timegm(&tm)) - offset_s) * 1000 + ms;
}

std::optional<int64_t> parse_iso8601(std::string_view text) {
    const auto ms = parse_iso8601_ms(text);
    if (!ms) return std::nullopt;
    return *ms >= 0 ? *ms / 1000 : -((-*ms + 999) / 1000);  // floor to whole seconds
}

}  // namespace cabinet
