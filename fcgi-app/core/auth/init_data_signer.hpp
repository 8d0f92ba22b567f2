#pragma once
// Produces init data the way Telegram does, for developer tools, tests and benchmarks
// (the verifier itself is tested against an independent implementation's vectors).
#include <string>
#include <utility>
#include <vector>

#include "auth/init_data.hpp"

namespace cabinet {

// `query_id`, as Telegram sends for an app opened from a menu or a button, makes two
// openings by the same user in the same second two different init data.
std::string sign_init_data(const std::string& bot_token, const TelegramUser& user, int64_t auth_date,
                           const std::string& start_param = {}, const std::string& query_id = {});
// Any fields, signed: sorted, hashed over the data-check string and form-encoded with
// `hash` last. Fields are taken as they are (tools and the fuzzer sign unusual ones).
std::string sign_init_data_fields(const std::string& bot_token, std::vector<std::pair<std::string, std::string>> fields);
// application/x-www-form-urlencoded encoding of one value.
std::string form_encode(std::string_view s);

}  // namespace cabinet
