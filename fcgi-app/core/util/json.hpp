#pragma once
// The one way into RapidJSON: hostile JSON must never abort the process, so the library's
// assertions throw instead (PRACTICE.md). Include this, never rapidjson/*.h directly.
#include <stdexcept>
#include <string>
#include <string_view>

#ifndef RAPIDJSON_ASSERT
#define RAPIDJSON_ASSERT(x) ((x) ? static_cast<void>(0) : throw std::logic_error("json: " #x))
#endif
#define RAPIDJSON_HAS_STDSTRING 1
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace cabinet {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Parse flags for every request body and every upstream answer.
constexpr unsigned kStrictParse = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag;

inline void write_string(JsonWriter& w, std::string_view s) {
    w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
inline void write_key(JsonWriter& w, std::string_view s) {
    w.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}
inline void write_nullable(JsonWriter& w, const std::string* s) {
    if (s) write_string(w, *s);
    else w.Null();
}

}  // namespace cabinet
