#pragma once
// Telegram one-time codes, e-mail link codes, the linked ways in of a user, and the rows of
// the web→Telegram account merge (statements in linking_statements.cpp). Codes arrive here
// already hashed (util/web_tokens.hpp).
#include <pqxx/pqxx>

#include <optional>
#include <string>
#include <vector>

#include "domain/telegram_code.hpp"

namespace cabinet {

// `user_id` 0 for a `weblogin` code.
void insert_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, const std::string& kind,
                          int64_t user_id, int64_t ttl_s, const CodeStarter& starter);
// A live (unconfirmed, unspent, unexpired) code of `kind`, with what the prompt shows.
std::optional<CodePrompt> telegram_code_for_prompt(pqxx::transaction_base& txn, const std::string& code_hash,
                                                   const std::string& kind);
// Ends a live code of `kind` (Cancel in the bot); false when it was not live.
bool cancel_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, const std::string& kind);
void sweep_telegram_codes(pqxx::transaction_base& txn);
// Whether its browser approves the sign-in still; nullopt when the code is unknown, of
// another kind, expired, confirmed or spent.
std::optional<bool> confirm_weblogin_code(pqxx::transaction_base& txn, const std::string& code_hash,
                                         int64_t telegram_user_id);
// The same for a `link` code that needs its browser's approval.
bool confirm_link_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t telegram_user_id);
// Ends the live link code of web user `user_id` (its browser declined); false when not live.
bool decline_link_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t user_id);
// The same for a web login whose browser declines who confirmed it (the row locked).
bool decline_weblogin_code(pqxx::transaction_base& txn, const std::string& code_hash);
// The Telegram account that confirmed a code (nullopt: none yet).
std::optional<CodeConfirmer> telegram_code_confirmer(pqxx::transaction_base& txn, const std::string& code_hash);

struct TelegramCode {
    std::string kind;
    int64_t user_id = 0;            // the web user of a `link` code
    int64_t confirmed_user_id = 0;  // the Telegram user who confirmed it
    bool confirmed = false;
    bool spent = false;
    bool expired = false;
    bool cancelled = false;  // Cancel pressed in the bot (spent too)
    std::string browser_hash;  // the browser that may finish it; empty: any
    bool needs_approval = false;
};
// The code's row, locked until the transaction ends.
std::optional<TelegramCode> lock_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash);
// The same, read without a lock (a read-only transaction may do it).
std::optional<TelegramCode> peek_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash);
void spend_telegram_code(pqxx::transaction_base& txn, const std::string& code_hash, int64_t confirmed_user_id);

struct LinkedProfile {
    std::string email;
    bool email_verified = false;
    bool has_password = false;
    std::optional<int64_t> telegram_id;
    std::string username;
};
struct OAuthLink {
    std::string provider;
    std::string email;
    std::string display_name;
};
std::optional<LinkedProfile> find_linked_profile(pqxx::transaction_base& txn, int64_t user_id);
std::vector<OAuthLink> oauth_links_of(pqxx::transaction_base& txn, int64_t user_id);

// The user whose verified e-mail this is (canonical form), if any.
std::optional<int64_t> email_owner(pqxx::transaction_base& txn, const std::string& email);
// Takes the address from an unverified account other than `taker` (and ends its links).
void release_unverified_email(pqxx::transaction_base& txn, const std::string& email, int64_t taker);
// Replaces the user's live code.
void replace_email_link_code(pqxx::transaction_base& txn, int64_t user_id, const std::string& email,
                             const std::string& code_hash, const std::string& password_hash, int64_t ttl_s);
struct EmailLinkCode {
    int64_t id = 0;
    std::string email;
    std::string code_hash;
    std::string password_hash;
    int64_t attempts = 0;
    bool expired = false;
};
// The user's live (unused) code, locked until the transaction ends.
std::optional<EmailLinkCode> lock_email_link_code(pqxx::transaction_base& txn, int64_t user_id);
// Counts a wrong attempt; the attempts made so far.
int64_t email_link_code_failed(pqxx::transaction_base& txn, int64_t code_id);
void use_email_link_code(pqxx::transaction_base& txn, int64_t code_id);
void set_linked_email(pqxx::transaction_base& txn, int64_t user_id, const std::string& email,
                      const std::string& password_hash);

// One side of a merge, its row locked.
struct MergeUser {
    int64_t id = 0;
    std::optional<int64_t> telegram_id;
    std::string email;
    bool email_verified = false;
    std::string password_hash;
    int64_t balance_minor = 0;
    bool trial_used = false;
    bool is_blocked = false;
};
std::optional<MergeUser> lock_merge_user(pqxx::transaction_base& txn, int64_t user_id);
struct MergeSubscription {
    int64_t expire_at = 0;  // unix seconds
    std::string panel_uuid;
    bool free_trial = false;  // a trial not paid for (a paid one was bought like a plan)
};
std::optional<MergeSubscription> merge_subscription_of(pqxx::transaction_base& txn, int64_t user_id);

// The merge's moves, `from` the web user and `to` the Telegram user, both rows locked.
// Moves everything that follows a user: transactions, referral earnings both ways, support
// tickets (the web user's open one closed when `to` has one open), promo activations not
// already made by `to`, events, referrals (users.referred_by), refresh tokens, OAuth links
// of providers `to` has none of.
void move_user_rows(pqxx::transaction_base& txn, int64_t from, int64_t to);
// Moves `from`'s subscription and traffic history to `to` (which must have none left).
void move_subscription(pqxx::transaction_base& txn, int64_t from, int64_t to);
void drop_subscription(pqxx::transaction_base& txn, int64_t user_id);
// What `from` gave back before its balance moved (MergeUser::balance_minor caps each).
struct TakenBack {
    int64_t promo_minor = 0;       // credits of balance codes both activated
    int64_t commission_minor = 0;  // commission earned on `to`'s payments
    int64_t total() const { return promo_minor + commission_minor; }
};
// `to` takes `from`'s balance and trial flag, its referrer when it has none, and its
// e-mail login when it has no e-mail; `from` gives up its e-mail and balance first. The
// balance that moves is less what the merge shows the person was paid twice or paid
// themselves (statement merge_repeated_rewards), which goes back as ledger rows of their
// own (promo, referral_commission) so that the ledger says why.
TakenBack merge_user_fields(pqxx::transaction_base& txn, const MergeUser& from, int64_t to);
void record_merge(pqxx::transaction_base& txn, int64_t user_id, const std::string& payload_json);
void delete_user(pqxx::transaction_base& txn, int64_t user_id);

}  // namespace cabinet
