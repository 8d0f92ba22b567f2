#pragma once
// Logs go to stderr (journald adds host and unit), UTC timestamps, in one of two formats
// (LOG_FORMAT):
//   text  2026-11-24T14:00:00.123Z cabinet-fcgi[42] info message
//   json  {"time":"2026-11-24T14:00:00.123Z","level":"info","process":"cabinet-fcgi","pid":42,"msg":"message"}
// The pool's one line per request goes to the logger named kAccessLogger: in json its
// message is not text but the request's fields (access_fields()), which become keys of the
// line itself, so that `jq 'select(.status >= 500)'` works on journalctl -o cat.
#include <cstdint>
#include <string>
#include <string_view>

namespace cabinet {

inline constexpr const char* kAccessLogger = "access";

void setup_logging(const std::string& level, const std::string& process_name, const std::string& format = "text");

// `"key":value` pairs of a request line, for the access logger in json mode.
struct AccessFields {
    std::string_view request_id, method, route, path;
    int status = 0;
    double duration_ms = 0;
    int64_t user_id = 0;  // 0: none (public route, or not authenticated)
};
std::string access_fields(const AccessFields& f);

// `v` as the inside of a JSON string: quotes, backslashes and control characters escaped;
// bytes that are not UTF-8 become '?', so every line stays valid JSON.
void append_json_escaped(std::string& out, std::string_view v);

}  // namespace cabinet
