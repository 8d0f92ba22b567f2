// An include guard, not #pragma once: the file is in the precompiled header
// (cmake/fast_build.cmake), and GCC does not match a `#pragma once` file loaded from a
// precompiled header with the same file included again by another path.
#ifndef CABINET_UTIL_JSON_HPP
#define CABINET_UTIL_JSON_HPP
// The one way into RapidJSON: hostile JSON must never abort the process, so the library's
// assertions throw instead (PRACTICE.md). Include this, never rapidjson/*.h directly.
#include <cstddef>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#ifndef RAPIDJSON_ASSERT
#define RAPIDJSON_ASSERT(x) ((x) ? static_cast<void>(0) : throw std::logic_error("json: " #x))
#endif
#define RAPIDJSON_HAS_STDSTRING 1
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace cabinet {

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

namespace detail {
// The pool a SmallDocument parses into: its first kInline bytes in the object itself (on
// the stack where the document is a local), then blocks of kBlock from malloc.
struct SmallPool {
    static constexpr size_t kInline = 1024, kBlock = 4096;
    alignas(std::max_align_t) char first[kInline];  // RapidJSON puts its chunk header here
    rapidjson::MemoryPoolAllocator<> pool{first, sizeof first, kBlock};
};
}  // namespace detail

// A Document for a small text: a request body, the init data's user, one panel user. A
// plain Document asks malloc for a 64 KB block at its first value, whatever the text's
// size; with the pool's threads parsing at once that was over half a megabyte of a
// process's heap at the bench's peak, kept resident after it (heaptrack, issue 17). Not
// movable (its values live in its own pool): declare it where it is read.
class SmallDocument : private detail::SmallPool, public rapidjson::Document {
public:
    SmallDocument() : detail::SmallPool(), rapidjson::Document(&pool) {}
    SmallDocument(const SmallDocument&) = delete;
    SmallDocument& operator=(const SmallDocument&) = delete;
};

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

// The JSON text that write(w, value) produces, for a value stored as JSON.
template <typename Write, typename T>
std::string json_text(Write write, const T& value) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    write(w, value);
    return {buf.GetString(), buf.GetSize()};
}

// {"key": "text", ...}: a small object of strings as JSON text (an audit payload).
inline std::string json_object(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    for (const auto& [k, v] : fields) {
        write_key(w, k);
        write_string(w, v);
    }
    w.EndObject();
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace cabinet

#endif  // CABINET_UTIL_JSON_HPP
