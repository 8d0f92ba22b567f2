#pragma once
// Key/value shorthands for answers written straight into the response (DESIGN "one JSON
// writing helper for key/value pairs"): one line a member, an absent optional as null.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/json.hpp"
#include "util/time.hpp"

namespace cabinet {

inline void put_text(JsonWriter& w, std::string_view key, std::string_view value) {
    write_key(w, key);
    write_string(w, value);
}
inline void put_text(JsonWriter& w, std::string_view key, const std::string& value) {
    put_text(w, key, std::string_view(value));
}
inline void put_text(JsonWriter& w, std::string_view key, const char* value) { put_text(w, key, std::string_view(value)); }
inline void put_text(JsonWriter& w, std::string_view key, const std::optional<std::string>& value) {
    write_key(w, key);
    if (value) write_string(w, *value);
    else w.Null();
}
inline void put_int(JsonWriter& w, std::string_view key, int64_t value) {
    write_key(w, key);
    w.Int64(value);
}
inline void put_int(JsonWriter& w, std::string_view key, const std::optional<int64_t>& value) {
    write_key(w, key);
    if (value) w.Int64(*value);
    else w.Null();
}
inline void put_bool(JsonWriter& w, std::string_view key, bool value) {
    write_key(w, key);
    w.Bool(value);
}
// Unix seconds as ISO-8601 UTC; absent (or 0, "never") as null.
inline void put_time(JsonWriter& w, std::string_view key, const std::optional<int64_t>& unix_s) {
    write_key(w, key);
    if (unix_s && *unix_s > 0) write_string(w, iso8601_utc(*unix_s));
    else w.Null();
}

}  // namespace cabinet
