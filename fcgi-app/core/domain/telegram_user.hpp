#pragma once
// A Telegram user as Telegram describes them: in a mini-app's init data (auth/init_data),
// in a bot update (api/bot/updates) and in the Login Widget's fields. Stored on the account
// by db/accounts_repo.
#include <cstdint>
#include <string>

namespace cabinet {

struct TelegramUser {
    int64_t id = 0;
    std::string first_name;
    std::string last_name;
    std::string username;
    std::string language_code;
};

}  // namespace cabinet
