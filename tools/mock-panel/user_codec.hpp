#pragma once
// A user as a record of the state file. Field names follow the contract so the file reads
// like the API; the reader is strict, because a damaged file must stop start-up rather
// than lose users quietly.
#include "json_output.hpp"
#include "user.hpp"

namespace mock {

void write_user_record(JsonWriter& w, const User& u);
// Throws ValidationError naming the field ("users.2.expireAt").
User read_user_record(const rapidjson::Value& v, const std::string& prefix);

}  // namespace mock
