#pragma once
// JSON from outside (request bodies, init data's `user`, webhooks): the strict parse plus
// what RapidJSON still lets through, refused (docs/decisions.md, "Hostile JSON"):
//  - an escaped lone surrogate: RapidJSON decodes "\udc00" into bytes that are not UTF-8,
//    and PostgreSQL refuses them in a text column (that was a 500); likewise "\u0000",
//    which a text column cannot hold and a C string would silently end at;
//  - a key repeated in one object: FindMember returns the first copy, another reader may
//    take the last, so two layers could act on different values (request smuggling).
#include <string>
#include <string_view>

#include "util/json.hpp"

namespace cabinet {

enum class JsonFault { none, malformed, bad_unicode, duplicate_key };

// Parses `text` into `doc` (kStrictParse) and checks every key and string. `dup_key` gets
// the repeated key on duplicate_key (cut to 64 bytes).
JsonFault parse_client_json(rapidjson::Document& doc, std::string_view text, std::string* dup_key = nullptr);

// A short reason fit for a 400 detail, e.g. "duplicate key \"amount\"".
std::string describe(JsonFault fault, const std::string& dup_key = {});

}  // namespace cabinet
