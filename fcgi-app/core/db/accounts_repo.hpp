#pragma once
// Users and their subscription: lookup and first-contact registration.
#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <vector>

#include "domain/account.hpp"
#include "domain/telegram_user.hpp"

namespace cabinet {

std::optional<Account> find_account_by_telegram_id(pqxx::transaction_base& txn, int64_t telegram_id);
std::optional<Account> find_account_by_id(pqxx::transaction_base& txn, int64_t user_id);
// Whether `link` is the encrypted Happ link of one of our subscriptions (GET /dl).
bool crypto_link_issued(pqxx::transaction_base& txn, const std::string& link);
// GET /traffic's chart: up to 30 daily snapshots, oldest first.
std::vector<TrafficDay> traffic_series(pqxx::transaction_base& txn, int64_t user_id);

// An account read *after* its user row was locked: the only kind of account that a writer
// of money, trial or subscription state accepts (grant_subscription takes nothing else), and
// only lock_account makes one. The locking rule (docs/decisions.md "One locking rule for
// writers"): lock the user row in one statement, then read everything the write derives
// from in later statements. Under READ COMMITTED a statement that waited for a lock sees
// the locked row's newest version but every other row as of its own start, so a lock and
// a read of the subscription in one statement hands out an expiry that a committed renewal
// has already moved (the lost days of issue 12).
struct LockedAccount : Account {
    int64_t locked_at = 0;  // Unix seconds when the lock was granted: the "now" of the write
    int64_t running_sale_pct = 0;  // the shop-wide sale running then (0: none), read with it

private:
    LockedAccount(Account a, int64_t at, int64_t sale_pct)
        : Account(std::move(a)), locked_at(at), running_sale_pct(sale_pct) {}
    friend LockedAccount lock_account(pqxx::transaction_base& txn, int64_t user_id);
};

// Locks the user row (FOR UPDATE, held until the transaction ends), then reads the account
// fresh: two statements inside one SQL function call (sql 0036), one round trip. Every
// writer that changes money, trial or subscription state starts here. Besides this lock a
// writer takes at most the referrer's row, after it, for the commission
// (services/referral_commission); the merge, which needs two users, locks the lower id first.
LockedAccount lock_account(pqxx::transaction_base& txn, int64_t user_id);

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

// Runs `insert(sub, referral_code)` (one INSERT of a user) in a subtransaction, retrying with
// a fresh code when the random referral code collides. With 32^8 codes a second collision
// in a row is practically impossible, a third is a bug; other violations propagate.
template <class Insert>
pqxx::result insert_with_referral_code(pqxx::dbtransaction& txn, const char* name, Insert&& insert) {
    for (int attempt = 0;; ++attempt) {
        try {
            pqxx::subtransaction sub(txn, name);
            pqxx::result res = insert(sub, new_referral_code());
            sub.commit();
            return res;
        } catch (const pqxx::unique_violation& e) {
            if (attempt >= 2 || std::string_view(e.what()).find("referral_code") == std::string_view::npos) throw;
        }
    }
}

// "en" for English Telegram clients, "ru" otherwise (the original shop's rule).
std::string language_for(const std::string& telegram_language_code);

}  // namespace cabinet
