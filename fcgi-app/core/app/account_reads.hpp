#pragma once
// Reads of the caller's own rows that GET requests repeat: from the process's account
// cache when it holds a good copy, else from the database (and then kept). Writers never
// come here: they lock and read the rows (db/accounts_repo.hpp lock_account).
#include <vector>

#include "app/context.hpp"

namespace cabinet {

// The account of a mini-app caller: registered, or with names refreshed, when needed.
Account telegram_caller(Exchange& ex, const TelegramUser& tg, const std::string& start_param);
// The account of a web-cabinet token's user; nothing when it no longer exists.
std::optional<Account> account_by_id(Exchange& ex, int64_t user_id);
// Whether the web session `session_id` of the user has ended (signed out, ended from another
// session, a reused refresh token) recently enough that an access token naming it may still
// be unexpired: such a token is refused at once, not when it expires.
bool session_ended(Exchange& ex, int64_t user_id, const std::string& session_id);

ReferralStats caller_referral_stats(Exchange& ex);
std::vector<TrafficDay> caller_traffic_series(Exchange& ex);

}  // namespace cabinet
