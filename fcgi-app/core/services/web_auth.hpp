#pragma once
// The web cabinet's e-mail accounts and sessions (SPEC-GAPS "Auth and sessions";
// docs/decisions.md "Web sessions (issue 7)"): register + verification mail, verify,
// login, refresh-token rotation with reuse detection, logout. Built per request from the
// thread's connections; errors are ApiErrors.
#include <optional>
#include <string>
#include <string_view>

#include "auth/jwt.hpp"
#include "auth/passwords.hpp"
#include "auth/throttle.hpp"
#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"

namespace cabinet {

struct WebSession {
    std::string access_token;
    std::string refresh_token;
    int64_t expires_in = 0;
    int64_t user_id = 0;
    std::string email;
    bool email_verified = false;
};

inline constexpr int64_t kAccessTokenTtlS = 900;
inline constexpr int64_t kResetTtlS = 1800;  // a password reset link: 30 minutes

// How a session began (refresh_tokens.origin): unlinking a provider ends its sessions.
inline constexpr const char* kSessionByPassword = "password";
inline constexpr const char* kSessionByTelegram = "telegram";
inline constexpr const char* kSessionByGuestPurchase = "guest";
std::string oauth_session_origin(std::string_view provider);  // "oauth:<provider>"

class WebAuth {
public:
    WebAuth(const Settings& s, const JwtCodec& jwt, const PasswordHasher& passwords, Db& db, Redis& redis)
        : s_(s), jwt_(jwt), passwords_(passwords), db_(db), redis_(redis), throttle_(s, redis, db) {}

    // `email` is canonical (domain/email.hpp). Queues a verification mail for a new account;
    // for a taken address the same answer and a mail to its owner (decisions.md).
    // `language` ("ru" or "en", the page's) is the new account's, for its mails and messages.
    void register_account(std::string_view ip, const std::string& email, std::string_view password,
                          const std::string& language);
    // The click of a verification link. A link of an address registered more than once
    // (contested) also needs the password of its own registration: 409 without one, 401
    // with another.
    WebSession verify(std::string_view ip, std::string_view token, const std::optional<std::string>& password);
    WebSession login(std::string_view ip, const std::string& email, std::string_view password);
    // "Forgot password": a single-use link (kResetTtlS) mailed to the account of `email`, at
    // most one a minute per account. The same answer, in the same time, for an address we do
    // not know; limited like registration (each call may send a mail).
    void forgot_password(std::string_view ip, const std::string& email);
    // The mailed link's new password: set, the address counted verified (the link proves
    // the mailbox), every session of the account ended, a notice mailed; a new session here.
    // 400 for a link that is invalid, used or expired.
    WebSession reset_password(std::string_view ip, std::string_view token, std::string_view password);
    // Signed in: a new password for `user_id`, the current one asked (422 when wrong, 409
    // when the account has none); every other session ends (`keep_session`, the caller's,
    // stays) and the address is told. Returns how many sessions ended.
    int64_t change_password(std::string_view ip, int64_t user_id, std::string_view current, std::string_view password,
                            const std::string& keep_session);
    // Takes the e-mail sign-in (address and password) off `user_id`'s account when it has
    // another way in (Telegram, OAuth): 404 without one, 409 when it is the last way in. The
    // sessions a password opened end, all but `keep_session` (the caller's).
    void remove_email_sign_in(int64_t user_id, const std::string& keep_session);
    // Another verification mail for an account not verified yet, at most one a minute; the
    // same answer whatever the address.
    void resend_verification(std::string_view ip, const std::string& email);
    WebSession refresh(std::string_view token);
    // A guest purchase by `email` (services/guest_purchase.hpp) may make an account and
    // mails: counted like a registration, refused (429) as one is.
    void count_guest_purchase(std::string_view ip, const std::string& email);
    // The guest's one-time sign-in (POST /auth/login/auto): a session for the account the
    // purchase made, from the browser that bought (`browser_hash`), once, in time, never
    // for a staff account or a blocked one. 400 for anything else, in one wording; a
    // refusal counts as a failed sign-in.
    WebSession guest_sign_in(std::string_view ip, std::string_view token, const std::string& browser_hash);
    // Ends the session of the refresh token; returns its user (nothing for a token we do
    // not know), whose account copies the caller forgets so that the session's access
    // tokens are refused at once (app/account_reads.hpp session_ended).
    std::optional<int64_t> logout(std::string_view token);
    // "Sign out everywhere else": ends every session of the user but `keep_session` (the
    // caller's refresh family; empty, as from the mini-app: all), their access tokens
    // with them. Returns how many ended.
    int64_t end_other_sessions(int64_t user_id, const std::string& keep_session);
    // A new session (a new refresh-token family) for a user that another way in has already
    // identified (Telegram web login, OAuth: `origin`), in the caller's transaction.
    WebSession open_session(pqxx::transaction_base& txn, int64_t user_id, const std::string& email, bool email_verified,
                            const std::string& origin) {
        return issue(txn, user_id, email, email_verified, origin);
    }

private:
    // An access token of session `family_id` and the session fields, without a refresh token.
    WebSession issue_access(int64_t user_id, const std::string& email, bool verified, const std::string& family_id) const;
    // A new session begun by `origin`: its first refresh token and an access token.
    WebSession issue(pqxx::transaction_base& txn, int64_t user_id, const std::string& email, bool verified,
                     const std::string& origin);

    const Settings& s_;
    const JwtCodec& jwt_;
    const PasswordHasher& passwords_;
    Db& db_;
    Redis& redis_;
    AuthThrottle throttle_;
};

}  // namespace cabinet
