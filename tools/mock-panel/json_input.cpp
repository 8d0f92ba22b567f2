#include "json_input.hpp"

#include <cmath>

#include "clock.hpp"

namespace mock {

rapidjson::Document parse_object(const std::string& text, bool empty_ok) {
    rapidjson::Document doc;
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
        if (!empty_ok) throw ValidationError("", "Expected object, received undefined");
        doc.SetObject();
        return doc;
    }
    doc.Parse<cabinet::kStrictParse>(text.data(), text.size());
    // Express's body parser fails before any schema runs; the panel reports that as E000.
    if (doc.HasParseError()) throw PanelError(400, "E000", "Request body is not valid JSON");
    if (!doc.IsObject()) throw ValidationError("", "Expected object");
    return doc;
}

bool json_integral(const rapidjson::Value& v, int64_t& out) {
    if (v.IsInt64()) {
        out = v.GetInt64();
        return true;
    }
    if (v.IsDouble()) {
        const double d = v.GetDouble();
        // Beyond 2^53 a JS number is no longer exact; zod would still call it an int, but
        // nothing the panel stores is that large.
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740991.0) {
            out = static_cast<int64_t>(d);
            return true;
        }
    }
    return false;
}

Fields::Fields(const rapidjson::Value& object, std::string prefix) : object_(object), prefix_(std::move(prefix)) {
    if (!object_.IsObject()) throw ValidationError(prefix_, "Expected object");
}

bool Fields::has(const char* key) const { return object_.HasMember(key); }

const rapidjson::Value* Fields::get(const char* key) const {
    auto it = object_.FindMember(key);
    return it == object_.MemberEnd() ? nullptr : &it->value;
}

std::optional<std::string> Fields::opt_string(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (!v->IsString()) throw ValidationError(path(key), "Expected string");
    return std::string(v->GetString(), v->GetStringLength());
}

std::string Fields::req_string(const char* key) const {
    auto v = opt_string(key);
    if (!v) throw ValidationError(path(key), "Required");
    return *v;
}

Nullable<std::string> Fields::nullable_string(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (v->IsNull()) return std::optional<std::string>();
    return std::optional<std::string>(opt_string(key));
}

std::optional<int64_t> Fields::opt_int(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    int64_t out = 0;
    if (!v->IsNumber()) throw ValidationError(path(key), "Expected number");
    if (!json_integral(*v, out)) throw ValidationError(path(key), "Expected integer");
    return out;
}

int64_t Fields::req_int(const char* key) const {
    auto v = opt_int(key);
    if (!v) throw ValidationError(path(key), "Required");
    return *v;
}

Nullable<int64_t> Fields::nullable_int(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (v->IsNull()) return std::optional<int64_t>();
    return std::optional<int64_t>(opt_int(key));
}

std::optional<bool> Fields::opt_bool(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (!v->IsBool()) throw ValidationError(path(key), "Expected boolean");
    return v->GetBool();
}

std::optional<std::vector<std::string>> Fields::opt_string_array(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (!v->IsArray()) throw ValidationError(path(key), "Expected array");
    std::vector<std::string> out;
    for (rapidjson::SizeType i = 0; i < v->Size(); ++i) {
        const auto& item = (*v)[i];
        if (!item.IsString()) throw ValidationError(path(key) + "." + std::to_string(i), "Expected string");
        out.emplace_back(item.GetString(), item.GetStringLength());
    }
    return out;
}

std::optional<int64_t> Fields::opt_time(const char* key) const {
    auto s = opt_string(key);
    if (!s) return std::nullopt;
    auto t = parse_iso_ms(*s);
    if (!t) throw ValidationError(path(key), "Invalid date format");
    return t;
}

int64_t Fields::req_time(const char* key) const {
    auto t = opt_time(key);
    if (!t) throw ValidationError(path(key), "Required");
    return *t;
}

Nullable<int64_t> Fields::nullable_time(const char* key) const {
    const auto* v = get(key);
    if (!v) return std::nullopt;
    if (v->IsNull()) return std::optional<int64_t>();
    return std::optional<int64_t>(opt_time(key));
}

}  // namespace mock
