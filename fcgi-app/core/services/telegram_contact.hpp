#pragma once
// First contact of a Telegram user, the same whichever door they come through: the
// mini-app's init data (app/authenticate) or the bot's /start (api/bot/webhook). SPEC
// "Authentication": both raise the one `registration` event.
#include <cstdint>
#include <optional>
#include <string>

#include "db/db.hpp"
#include "domain/account.hpp"
#include "domain/telegram_user.hpp"

namespace cabinet {

// The user's account, registered first when new (referrer from `start_param` "ref_<code>",
// a `registration` event) or with Telegram's name fields refreshed when they changed; any
// write is committed before this returns. A known user's referrer never changes.
Account telegram_contact(Db& db, const TelegramUser& tg, const std::string& currency, const std::string& start_param);

// The account of Telegram user `telegram_id`, read without a transaction; nullopt for one
// who never came through either door.
std::optional<Account> telegram_account(Db& db, int64_t telegram_id);

// Whether Telegram's names for the user differ from ours (telegram_contact then writes).
bool profile_changed(const User& u, const TelegramUser& tg);

}  // namespace cabinet
