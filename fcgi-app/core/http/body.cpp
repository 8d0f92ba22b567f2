#include "http/body.hpp"

#include "errors.hpp"
#include "util/client_json.hpp"

namespace cabinet {

JsonBody::JsonBody(const Request& req) {
    if (req.body.find_first_not_of(" \t\r\n") == std::string::npos) {
        SetObject();
        return;
    }
    std::string dup;
    switch (const JsonFault f = parse_client_json(*this, req.body, &dup)) {
        case JsonFault::none: break;
        case JsonFault::malformed: throw bad_request("malformed JSON body");
        default: throw bad_request(describe(f, dup));
    }
    if (!IsObject()) throw bad_request("JSON body must be an object");
}

bool has_field(const rapidjson::Value& obj, const char* field) {
    auto it = obj.FindMember(field);
    return it != obj.MemberEnd() && !it->value.IsNull();
}

std::string require_string(const rapidjson::Value& obj, const char* field, size_t min_len, size_t max_len) {
    auto it = obj.FindMember(field);
    if (it == obj.MemberEnd() || it->value.IsNull()) throw bad_request(std::string(field) + " is required");
    if (!it->value.IsString()) throw bad_request(std::string(field) + " must be a string");
    std::string s(it->value.GetString(), it->value.GetStringLength());
    const size_t len = utf8_length(s);
    if (len < min_len || len > max_len)
        throw bad_request(std::string(field) + " must be " + std::to_string(min_len) + ".." + std::to_string(max_len) +
                          " characters");
    if (s.find('\0') != std::string::npos) throw bad_request(std::string(field) + " must not contain NUL");
    return s;
}

std::optional<std::string> optional_string(const rapidjson::Value& obj, const char* field, size_t max_len) {
    if (!has_field(obj, field)) return std::nullopt;
    return require_string(obj, field, 0, max_len);
}

bool require_bool(const rapidjson::Value& obj, const char* field) {
    auto it = obj.FindMember(field);
    if (it == obj.MemberEnd() || it->value.IsNull()) throw bad_request(std::string(field) + " is required");
    if (!it->value.IsBool()) throw bad_request(std::string(field) + " must be true or false");
    return it->value.GetBool();
}

int64_t require_int(const rapidjson::Value& obj, const char* field, int64_t min, int64_t max) {
    auto it = obj.FindMember(field);
    if (it == obj.MemberEnd() || it->value.IsNull()) throw bad_request(std::string(field) + " is required");
    if (!it->value.IsInt64()) throw bad_request(std::string(field) + " must be an integer");
    const int64_t v = it->value.GetInt64();
    if (v < min || v > max)
        throw bad_request(std::string(field) + " must be between " + std::to_string(min) + " and " + std::to_string(max));
    return v;
}

}  // namespace cabinet
