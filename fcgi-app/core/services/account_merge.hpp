#pragma once
// Linking a web account to Telegram: the bot's /start link_<code> merges the code's web
// user INTO the Telegram user who opened it, in one transaction with both user rows
// locked (docs/decisions.md "Telegram web login and account linking (issue 7)").
#include <string_view>

#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

enum class MergeOutcome {
    linked,          // merged; the web user is deleted
    expired,         // unknown, expired or used code
    same_account,    // the code's user is this Telegram user already
    already_linked,  // the web user got a Telegram id meanwhile
    email_conflict,  // both have an e-mail and they differ: nothing changed
    blocked,         // either side is blocked: nothing changed
};

// Panel-first like every subscription write: the kept subscription's panel user is re-owned
// by the Telegram id and the dropped one disabled (absolute values, so a retry converges)
// before the merge commits; a panel outage fails the merge (PanelError, 502) with nothing
// changed and the code still usable.
// The bot's Confirm of a code whose browser does not approve (an older client's): merges now.
// A code that needs approval is `expired` here (its Confirm only names the Telegram user).
MergeOutcome link_telegram_account(Db& db, PanelClient& panel, std::string_view code, int64_t telegram_user_id);
// The browser's approval of its own code (`web_user_id`), confirmed in the bot: merges into
// the Telegram user who confirmed it. `expired` for any other code.
MergeOutcome approve_telegram_link(Db& db, PanelClient& panel, std::string_view code, int64_t web_user_id);

}  // namespace cabinet
