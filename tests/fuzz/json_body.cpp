// JSON request bodies, http/body: JsonBody and the field readers every endpoint uses.
// The first line is a field spec, the rest the body. The spec is ';'-separated readers,
// each kind:name[:a:b], as the endpoints call them:
//   s:name:min:max  require_string      o:name:max   optional_string
//   i:name:min:max  require_int         b:name       require_bool
//   h:name          has_field           e:email      require_string + normalize_email
// A reader either returns a value within its bounds or throws ApiError 400; nothing else.
#include <algorithm>
#include <string>

#include "domain/email.hpp"
#include "errors.hpp"
#include "fuzz_input.hpp"
#include "http/body.hpp"
#include "util/strings.hpp"

namespace {

int64_t number(std::string_view& spec, int64_t fallback) {
    int64_t v = 0;
    return cabinet::parse_int64(fuzz::take(spec, ":"), v) ? v : fallback;
}

void read_field(const rapidjson::Value& body, std::string_view spec) {
    const std::string_view kind = fuzz::take(spec, ":");
    const std::string name(fuzz::take(spec, ":"));
    if (kind == "s") {
        const auto min = static_cast<size_t>(std::max<int64_t>(0, number(spec, 0)));
        const auto max = static_cast<size_t>(std::max<int64_t>(0, number(spec, 64)));
        const std::string v = cabinet::require_string(body, name.c_str(), min, max);
        const size_t len = cabinet::utf8_length(v);
        if (len < min || len > max) fuzz::fail("require_string returned a string out of bounds");
        if (v.find('\0') != std::string::npos) fuzz::fail("require_string returned a NUL");
    } else if (kind == "o") {
        const auto max = static_cast<size_t>(std::max<int64_t>(0, number(spec, 64)));
        const auto v = cabinet::optional_string(body, name.c_str(), max);
        if (v && cabinet::utf8_length(*v) > max) fuzz::fail("optional_string returned a string too long");
        if (!v && cabinet::has_field(body, name.c_str())) fuzz::fail("optional_string dropped a present field");
    } else if (kind == "i") {
        const int64_t min = number(spec, 0), max = number(spec, 100);
        const int64_t v = cabinet::require_int(body, name.c_str(), min, max);
        if (v < min || v > max) fuzz::fail("require_int returned a value out of bounds");
    } else if (kind == "b") {
        cabinet::require_bool(body, name.c_str());
    } else if (kind == "h") {
        cabinet::has_field(body, name.c_str());
    } else if (kind == "e") {
        const auto email = cabinet::normalize_email(cabinet::require_string(body, "email", 3, 254));
        if (email && (email->size() > 254 || email->find_first_of(" <>\"\r\n") != std::string::npos))
            fuzz::fail("normalize_email accepted an address unsafe in a mail header");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view rest = fuzz::as_text(data, size);
    std::string_view spec = fuzz::take(rest);
    cabinet::Request req;
    req.body.assign(rest);
    try {
        const cabinet::JsonBody body(req);
        if (!body.IsObject()) fuzz::fail("JsonBody holds something other than an object");
        while (!spec.empty()) read_field(body, fuzz::take(spec, ";"));
    } catch (const cabinet::ApiError& e) {
        if (e.status() != 400) fuzz::fail("a body reader answered other than 400");
    }
    return 0;
}
