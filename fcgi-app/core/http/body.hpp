#pragma once
// Reading JSON request bodies: hostile input becomes a 400 with a detail naming the field,
// never an exception from deep inside RapidJSON. Unknown fields are ignored.
#include <cstdint>
#include <optional>
#include <string>

#include "http/request.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"  // utf8_length, for the handlers' own limits

namespace cabinet {

// The body as a JSON object; an empty body is an empty object. 400 otherwise, and on a lone
// surrogate escape or a repeated key (util/client_json.hpp). A local of the handler:
//   const JsonBody body(ex.req);
class JsonBody : public SmallDocument {
public:
    explicit JsonBody(const Request& req);
};

// Required string of [min_len, max_len] UTF-8 characters (not bytes).
std::string require_string(const rapidjson::Value& obj, const char* field, size_t min_len, size_t max_len);
bool require_bool(const rapidjson::Value& obj, const char* field);
int64_t require_int(const rapidjson::Value& obj, const char* field, int64_t min, int64_t max);
std::optional<std::string> optional_string(const rapidjson::Value& obj, const char* field, size_t max_len);
bool has_field(const rapidjson::Value& obj, const char* field);

}  // namespace cabinet
