#pragma once
// Key/value shorthands for code that holds a bare JsonWriter; util/json_object.hpp's
// JsonObject is the same with the object's scope, and new code uses it.
#include <cstdint>
#include <optional>
#include <string_view>

#include "util/json_object.hpp"

namespace cabinet {

template <typename T>
void put_value(JsonWriter& w, std::string_view key, const T& value) {
    write_key(w, key);
    write_value(w, value);
}
template <typename T>
void put_text(JsonWriter& w, std::string_view key, const T& value) { put_value(w, key, value); }
template <typename T>
void put_int(JsonWriter& w, std::string_view key, const T& value) { put_value(w, key, value); }
inline void put_bool(JsonWriter& w, std::string_view key, bool value) { put_value(w, key, value); }
// Unix seconds as ISO-8601 UTC; absent (or 0, "never") as null.
inline void put_time(JsonWriter& w, std::string_view key, const std::optional<int64_t>& unix_s) {
    write_key(w, key);
    write_time(w, unix_s);
}

}  // namespace cabinet
