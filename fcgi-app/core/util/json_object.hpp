#pragma once
// The one way answers are written (DESIGN "one JSON writing helper for key/value pairs"):
// an object or array opened by a scope and closed when the scope ends, one `put` a member,
// straight into the response's buffer (no DOM). A value's type picks how it is written:
//   JsonObject o(w);
//   o.put("id", u.id).put("email", u.email);     // std::optional: null when absent
//   o.time("expire_at", sub.expire_at);          // Unix seconds as ISO-8601 UTC
//   { auto traffic = o.object("traffic"); traffic.put("used_bytes", n); }
//   for (const auto& d : ds) o_items.add(d.days); // arrays: add() a value, object() a member
// When an exception leaves the scope, nothing more is written: the response is reset and the
// error written in its place (app/dispatch.cpp), so the half-written text never leaves.
#include <concepts>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "util/json.hpp"
#include "util/time.hpp"

namespace cabinet {

// How one value is written; an absent optional is null.
inline void write_value(JsonWriter& w, std::string_view v) { write_string(w, v); }
inline void write_value(JsonWriter& w, const std::string& v) { write_string(w, v); }
inline void write_value(JsonWriter& w, const char* v) { write_string(w, v); }
inline void write_value(JsonWriter& w, bool v) { w.Bool(v); }
inline void write_value(JsonWriter& w, double v) { w.Double(v); }
template <std::integral T>
    requires(!std::same_as<T, bool>)
void write_value(JsonWriter& w, T v) {
    w.Int64(static_cast<int64_t>(v));
}
template <typename T>
void write_value(JsonWriter& w, const std::optional<T>& v) {
    if (v) write_value(w, *v);
    else w.Null();
}

// Unix seconds as ISO-8601 UTC; absent, or 0 ("never"), as null.
inline void write_time(JsonWriter& w, const std::optional<int64_t>& unix_s) {
    if (unix_s && *unix_s > 0) write_string(w, iso8601_utc(*unix_s));
    else w.Null();
}

class JsonObject;
class JsonArray;

namespace detail {
// What an object and an array share: the writer, opening the level, and closing it when the
// scope ends, unless an exception is passing through: closing could then meet a level left
// open below and throw during unwinding (RAPIDJSON_ASSERT throws; the destructor may throw,
// so a bug of nesting is a 500, never an abort).
template <bool kObject>
class JsonScope {
public:
    JsonScope(const JsonScope&) = delete;
    JsonScope& operator=(const JsonScope&) = delete;
    JsonWriter& writer() { return w_; }

protected:
    explicit JsonScope(JsonWriter& w) : w_(w), unwinding_(std::uncaught_exceptions()) {
        if constexpr (kObject) w_.StartObject();
        else w_.StartArray();
    }
    ~JsonScope() noexcept(false) {
        if (std::uncaught_exceptions() != unwinding_) return;
        if constexpr (kObject) w_.EndObject();
        else w_.EndArray();
    }
    JsonWriter& w_;

private:
    int unwinding_;
};
}  // namespace detail

class JsonObject : public detail::JsonScope<true> {
public:
    explicit JsonObject(JsonWriter& w) : JsonScope(w) {}

    template <typename T>
    JsonObject& put(std::string_view key, const T& value) {
        write_key(w_, key);
        write_value(w_, value);
        return *this;
    }
    JsonObject& put(std::string_view key, const char* value) { return put(key, std::string_view(value)); }
    JsonObject& null(std::string_view key) {
        write_key(w_, key);
        w_.Null();
        return *this;
    }
    // Unix seconds as ISO-8601 UTC; absent, or 0 ("never"), as null.
    JsonObject& time(std::string_view key, const std::optional<int64_t>& unix_s) {
        write_key(w_, key);
        write_time(w_, unix_s);
        return *this;
    }
    // A member whose value is JSON text already (a stored document).
    JsonObject& raw(std::string_view key, std::string_view json, rapidjson::Type type = rapidjson::kObjectType) {
        write_key(w_, key);
        w_.RawValue(json.data(), json.size(), type);
        return *this;
    }
    // The writer placed after `key`, for a value written by another function.
    JsonWriter& key(std::string_view key) {
        write_key(w_, key);
        return w_;
    }
    JsonObject object(std::string_view key) {
        write_key(w_, key);
        return JsonObject(w_);
    }
    inline JsonArray array(std::string_view key);
};

class JsonArray : public detail::JsonScope<false> {
public:
    explicit JsonArray(JsonWriter& w) : JsonScope(w) {}

    template <typename T>
    JsonArray& add(const T& value) {
        write_value(w_, value);
        return *this;
    }
    JsonObject object() { return JsonObject(w_); }
    JsonArray array() { return JsonArray(w_); }
};

inline JsonArray JsonObject::array(std::string_view key) {
    write_key(w_, key);
    return JsonArray(w_);
}

// The text of one object that `fill(JsonObject&)` writes (a stored payload, an audit entry):
// the object is closed before the text is taken, which a local JsonObject in the function
// that returns the buffer would not be.
template <typename Fill>
std::string object_text(Fill fill) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        fill(o);
    }
    return {buf.GetString(), buf.GetSize()};
}

}  // namespace cabinet
