#pragma once
// Web-cabinet accounts, verification tokens, refresh-token families and the PostgreSQL
// brute-force counters (statements in web_auth_statements.cpp). Token values arrive here
// already hashed (util/web_tokens.hpp).
#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <vector>

namespace cabinet {

struct WebLogin {
    int64_t id = 0;
    std::string email;
    bool email_verified = false;
    std::string password_hash;  // empty when the account has no password (Telegram-only)
    bool is_blocked = false;
    std::string language;  // the account's: its mails are written in it
};

// A new web-only account (telegram_id NULL) with a fresh referral code and a
// `registration` event; nullopt when the e-mail belongs to an account already.
std::optional<int64_t> insert_web_user(pqxx::dbtransaction& txn, const std::string& email,
                                       const std::string& password_hash, const std::string& currency,
                                       const std::string& language);
std::optional<WebLogin> find_web_login_by_email(pqxx::transaction_base& txn, const std::string& email);
std::optional<WebLogin> find_web_login_by_id(pqxx::transaction_base& txn, int64_t user_id);
void update_password_hash(pqxx::transaction_base& txn, int64_t user_id, const std::string& hash);

// `password_hash` is the registration's own; `contested` when the unverified account existed
// before this registration (then every link of the account asks for its password).
void insert_verification_token(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                               const std::string& email, int64_t ttl_s, const std::string& password_hash,
                               bool contested);
struct UsedVerification {
    int64_t user_id = 0;
    std::string email;
    std::string password_hash;  // of the registration that mailed this link; empty for none
    bool contested = false;     // the address was registered more than once: ask the password
};
// An unused, unexpired token, left unused; nullopt when there is none.
std::optional<UsedVerification> peek_verification_token(pqxx::transaction_base& txn, const std::string& token_hash);
// Marks an unused, unexpired token used; nullopt when there is none.
std::optional<UsedVerification> use_verification_token(pqxx::transaction_base& txn, const std::string& token_hash);
void mark_email_verified(pqxx::transaction_base& txn, int64_t user_id, const std::string& email);

// "Forgot password": stores a link for the account unless one was made within the last
// minute; true when it was stored (then the mail goes out).
bool insert_reset_token(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                        const std::string& email, int64_t ttl_s);
struct UsedReset {
    int64_t user_id = 0;
    std::string email;  // the address the link was sent to
};
// Marks an unused, unexpired link used, and the account's other links with it.
std::optional<UsedReset> use_reset_token(pqxx::transaction_base& txn, const std::string& token_hash);
// The unverified account of `email` when its last verification link is a minute old or
// more (a resend is due); nullopt otherwise. `contested`: the address was registered more
// than once, so the new link asks for a password too.
struct ResendDue {
    int64_t user_id = 0;
    std::string email, password_hash, language;
    bool contested = false;
};
std::optional<ResendDue> verification_resend_due(pqxx::transaction_base& txn, const std::string& email);
// Takes the e-mail sign-in (address, password) off the account when it has another way in;
// false when it has none other (or no e-mail).
bool remove_email_login(pqxx::transaction_base& txn, int64_t user_id);

// `family_id` empty starts a new family.
// A new session's first refresh token (how it began: `origin`); returns the family's id.
std::string insert_refresh_family(pqxx::transaction_base& txn, const std::string& token_hash, int64_t user_id,
                                  int64_t ttl_s, const std::string& origin);
// The next token of a family, after the token `predecessor_id`: valid `ttl_s`, but never
// past the family's start plus `family_max_age_s`.
void insert_refresh_successor(pqxx::transaction_base& txn, const std::string& token_hash, int64_t predecessor_id,
                              int64_t ttl_s, int64_t family_max_age_s);
struct RefreshRow {
    int64_t id = 0;
    std::string family_id;
    int64_t user_id = 0;
    bool rotated = false;
    bool revoked = false;
    bool expired = false;
    std::string successor_sealed;  // set only while the rotation is within the grace period
};
// The token's row, locked until the transaction ends (concurrent refreshes queue up).
// `expired` also when the family began more than `family_max_age_s` ago; `successor_sealed`
// only while the rotation is less than `grace_s` old (auth/refresh_grace.hpp).
std::optional<RefreshRow> lock_refresh_token(pqxx::transaction_base& txn, const std::string& token_hash,
                                             int64_t grace_s, int64_t family_max_age_s);
// Marks the token rotated, keeping its successor sealed for the grace period.
void rotate_refresh_token(pqxx::transaction_base& txn, int64_t id, const std::string& successor_sealed);
void revoke_refresh_family(pqxx::transaction_base& txn, const std::string& family_id);
// Returns the token's user; nothing for a token we do not know.
std::optional<int64_t> revoke_refresh_family_of_token(pqxx::transaction_base& txn, const std::string& token_hash);
// Ends the user's live sessions but `keep_family` (empty: all), only those of `origin` when
// it is not empty; returns how many ended.
int64_t revoke_refresh_families(pqxx::transaction_base& txn, int64_t user_id, const std::string& keep_family,
                                const std::string& origin = {});

// The ids of the user's sessions (refresh families) that ended within the last `within_s`
// seconds, in no order.
std::vector<std::string> ended_sessions(pqxx::transaction_base& txn, int64_t user_id, int64_t within_s);

struct FailureCount {
    int64_t count = 0;
    int64_t retry_after_s = 0;  // until the window ends
    int64_t last_unix = 0;      // the latest failure counted
};
FailureCount auth_failure_count(pqxx::transaction_base& txn, const std::string& key, int64_t window_s);
void auth_failure_hit(pqxx::transaction_base& txn, const std::string& key, int64_t window_s);

}  // namespace cabinet
