#pragma once
// What every hostile request must leave behind: a 4xx with {"detail": "..."}, no row
// changed, no 500 in the pool's logs (hostile_input_test.cpp).
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "support.hpp"

namespace it {

// The answer is a refusal: a 4xx (or one of `also`), JSON, with a string `detail`.
void expect_refusal(const HttpResult& r, const std::string& what, std::initializer_list<long> also = {});

// Row counts and values a hostile request could change, for one user and globally.
std::map<std::string, std::string> db_snapshot(int64_t telegram_id);

// Lines the pool logged after construction that report a 500 or an error.
class PoolLogWatch {
public:
    PoolLogWatch();
    std::vector<std::string> server_errors() const;

private:
    std::map<std::string, uintmax_t> start_;  // log file -> size at construction
};

// Init data whose `user` field is `user_json` as given (escapes and all), correctly signed
// with the stack's bot token: what Telegram would send if it signed such a user.
std::string tma_header_raw_user(const std::string& user_json);

}  // namespace it
