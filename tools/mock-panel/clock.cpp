#include "clock.hpp"

#include "util/time.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>

namespace mock {

int64_t now_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

std::string iso_ms(int64_t unix_ms) {
    int64_t secs = unix_ms / 1000;
    int64_t ms = unix_ms % 1000;
    if (ms < 0) {
        ms += 1000;
        --secs;
    }
    const auto t = static_cast<std::time_t>(secs);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[40];
    const size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms));
    return buf;
}

std::optional<int64_t> parse_iso_ms(std::string_view text) { return cabinet::parse_iso8601_ms(text); }

}  // namespace mock
