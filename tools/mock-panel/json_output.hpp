#pragma once
// Key/value shorthands for the JSON writer: the panel's objects are long and flat, and
// optional fields are written as null (the contract marks them nullable, not optional).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "clock.hpp"
#include "util/json.hpp"

namespace mock {

using cabinet::JsonWriter;

inline void put(JsonWriter& w, std::string_view key, std::string_view value) {
    cabinet::write_key(w, key);
    cabinet::write_string(w, value);
}
inline void put(JsonWriter& w, std::string_view key, const char* value) { put(w, key, std::string_view(value)); }
inline void put(JsonWriter& w, std::string_view key, const std::string& value) { put(w, key, std::string_view(value)); }
inline void put(JsonWriter& w, std::string_view key, const std::optional<std::string>& value) {
    cabinet::write_key(w, key);
    if (value) cabinet::write_string(w, *value);
    else w.Null();
}
inline void put_null(JsonWriter& w, std::string_view key) {
    cabinet::write_key(w, key);
    w.Null();
}
inline void put_int(JsonWriter& w, std::string_view key, int64_t value) {
    cabinet::write_key(w, key);
    w.Int64(value);
}
inline void put_int(JsonWriter& w, std::string_view key, const std::optional<int64_t>& value) {
    cabinet::write_key(w, key);
    if (value) w.Int64(*value);
    else w.Null();
}
inline void put_bool(JsonWriter& w, std::string_view key, bool value) {
    cabinet::write_key(w, key);
    w.Bool(value);
}
inline void put_time(JsonWriter& w, std::string_view key, int64_t unix_ms) { put(w, key, iso_ms(unix_ms)); }
inline void put_time(JsonWriter& w, std::string_view key, const std::optional<int64_t>& unix_ms) {
    cabinet::write_key(w, key);
    if (unix_ms) cabinet::write_string(w, iso_ms(*unix_ms));
    else w.Null();
}

}  // namespace mock
