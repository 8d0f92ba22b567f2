#pragma once
// Typed reads from a parsed JSON object, for request bodies and the state file alike.
// A value of the wrong type throws ValidationError naming the field, so a bad request
// becomes the contract's 400 and a damaged state file a start-up error naming the field.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "panel_errors.hpp"
#include "util/json.hpp"

namespace mock {

// Absent (nullopt), explicit null (optional holding nullopt) or a value.
template <class T>
using Nullable = std::optional<std::optional<T>>;

// Parses a request body: PanelError 400 E000 when it is not JSON (as the panel's body parser
// answers), ValidationError when it is not an object. Empty text is {} when `empty_ok`.
rapidjson::Document parse_object(const std::string& text, bool empty_ok);

class Fields {
public:
    // `prefix` is prepended to field names in errors ("users.3.").
    Fields(const rapidjson::Value& object, std::string prefix = {});

    bool has(const char* key) const;
    const rapidjson::Value* get(const char* key) const;  // null when absent
    std::string path(const char* key) const { return prefix_ + key; }

    std::optional<std::string> opt_string(const char* key) const;
    std::string req_string(const char* key) const;
    Nullable<std::string> nullable_string(const char* key) const;

    // zod's number().int(): any JSON number with an integral value (5 and 5.0).
    std::optional<int64_t> opt_int(const char* key) const;
    int64_t req_int(const char* key) const;
    Nullable<int64_t> nullable_int(const char* key) const;

    std::optional<bool> opt_bool(const char* key) const;

    std::optional<std::vector<std::string>> opt_string_array(const char* key) const;

    // ISO-8601 timestamps as Unix milliseconds.
    std::optional<int64_t> opt_time(const char* key) const;
    int64_t req_time(const char* key) const;
    Nullable<int64_t> nullable_time(const char* key) const;

private:
    const rapidjson::Value& object_;
    std::string prefix_;
};

bool json_integral(const rapidjson::Value& v, int64_t& out);

}  // namespace mock
