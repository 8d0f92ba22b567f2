#pragma once
// The ways into an account (GET /api/cabinet/linked): its e-mail login, its Telegram
// account and its OAuth links, read together without a transaction. Linking more of them
// is services/email_link.hpp's, services/telegram_codes.hpp's and services/account_merge.hpp's.
#include <cstdint>
#include <optional>
#include <vector>

#include "db/db.hpp"
#include "db/linking_repo.hpp"

namespace cabinet {

struct LinkedLogins {
    std::optional<LinkedProfile> profile;  // nullopt: no such user
    std::vector<OAuthLink> oauth;
};

LinkedLogins linked_logins(Db& db, int64_t user_id);

}  // namespace cabinet
