#include "util/client_json.hpp"

#include <algorithm>
#include <vector>

#include "util/strings.hpp"

namespace cabinet {
namespace {

std::string_view view(const rapidjson::Value& s) { return {s.GetString(), s.GetStringLength()}; }

// Walks the tree with an explicit stack: kParseIterativeFlag lets a 64 KiB body nest
// tens of thousands of levels, too deep for recursion on a pool thread.
JsonFault check_tree(const rapidjson::Value& root, std::string* dup_key) {
    std::vector<const rapidjson::Value*> todo{&root};
    std::vector<std::string_view> keys;
    while (!todo.empty()) {
        const rapidjson::Value* v = todo.back();
        todo.pop_back();
        if (v->IsString()) {
            // A NUL (\u0000) cannot be stored in PostgreSQL text, and C strings end at it.
            if (!valid_utf8(view(*v)) || view(*v).find('\0') != std::string_view::npos) return JsonFault::bad_unicode;
        } else if (v->IsArray()) {
            for (const auto& e : v->GetArray()) todo.push_back(&e);
        } else if (v->IsObject()) {
            keys.clear();
            for (const auto& m : v->GetObject()) {
                if (!valid_utf8(view(m.name)) || view(m.name).find('\0') != std::string_view::npos)
                    return JsonFault::bad_unicode;
                keys.push_back(view(m.name));
                todo.push_back(&m.value);
            }
            std::sort(keys.begin(), keys.end());
            if (auto d = std::adjacent_find(keys.begin(), keys.end()); d != keys.end()) {
                if (dup_key) *dup_key = std::string(utf8_prefix(*d, 64));
                return JsonFault::duplicate_key;
            }
        }
    }
    return JsonFault::none;
}

}  // namespace

JsonFault parse_client_json(rapidjson::Document& doc, std::string_view text, std::string* dup_key) {
    doc.Parse<kStrictParse>(text.data(), text.size());
    // A lone *high* surrogate is already a parse error; a lone low one is not.
    if (doc.HasParseError()) {
        const auto e = doc.GetParseError();
        return e == rapidjson::kParseErrorStringUnicodeSurrogateInvalid || e == rapidjson::kParseErrorStringInvalidEncoding
                   ? JsonFault::bad_unicode
                   : JsonFault::malformed;
    }
    return check_tree(doc, dup_key);
}

std::string describe(JsonFault fault, const std::string& dup_key) {
    switch (fault) {
        case JsonFault::none: return "ok";
        case JsonFault::malformed: return "malformed JSON";
        case JsonFault::bad_unicode: return "JSON text is not valid Unicode (a lone surrogate escape, a NUL character or invalid UTF-8)";
        case JsonFault::duplicate_key: return "duplicate key \"" + dup_key + "\" in JSON object";
    }
    return "malformed JSON";
}

}  // namespace cabinet
