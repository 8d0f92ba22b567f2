#pragma once
// Users and their subscription: lookup and first-contact registration.
#include <pqxx/pqxx>

#include <optional>

#include "auth/init_data.hpp"
#include "domain/account.hpp"

namespace cabinet {

std::optional<Account> find_account_by_telegram_id(pqxx::transaction_base& txn, int64_t telegram_id);
std::optional<Account> find_account_by_id(pqxx::transaction_base& txn, int64_t user_id);
// The account with its user row locked (FOR UPDATE) until the transaction ends.
Account lock_account(pqxx::transaction_base& txn, int64_t user_id);

// Creates the user of a first mini-app contact with a fresh referral code, the referrer
// from `start_param` "ref_<code>", and a `registration` event, in one statement; a
// concurrent first contact of the same user creates nothing twice. Returns the user id
// (also when the row existed already).
int64_t register_telegram_user(pqxx::dbtransaction& txn, const TelegramUser& tg, const std::string& currency,
                               const std::string& start_param);

// Keeps name fields in step with Telegram's view of the user.
void refresh_telegram_profile(pqxx::transaction_base& txn, int64_t user_id, const TelegramUser& tg);

// 8 characters from an alphabet without look-alikes; callers retry on a unique violation.
std::string new_referral_code();

// "en" for English Telegram clients, "ru" otherwise (the original shop's rule).
std::string language_for(const std::string& telegram_language_code);

}  // namespace cabinet
