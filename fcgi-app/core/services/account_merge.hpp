#pragma once
// Linking a web account to Telegram: the bot's /start link_<code> merges the code's web
// user INTO the Telegram user who opened it, in one transaction with both user rows
// locked (docs/decisions.md "Telegram web login and account linking (issue 7)").
#include <string_view>

#include "db/db.hpp"

namespace cabinet {

enum class MergeOutcome {
    linked,          // merged; the web user is deleted
    expired,         // unknown, expired or used code
    same_account,    // the code's user is this Telegram user already
    already_linked,  // the web user got a Telegram id meanwhile
    email_conflict,  // both have an e-mail and they differ: nothing changed
    blocked,         // either side is blocked: nothing changed
};

MergeOutcome link_telegram_account(Db& db, std::string_view code, int64_t telegram_user_id);

}  // namespace cabinet
