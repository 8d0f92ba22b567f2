#pragma once
// Linking an e-mail and a password to an account that has none (a Telegram user, usually):
// a 6-digit code mailed to the address, 15 minutes, 5 wrong attempts; the confirmation
// makes the address a verified login (SPEC-GAPS "Cabinet shapes"; docs/decisions.md).
#include <string>
#include <string_view>

#include "auth/passwords.hpp"
#include "auth/throttle.hpp"
#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"

namespace cabinet {

inline constexpr int64_t kEmailLinkCodeTtlS = 900;
inline constexpr int64_t kEmailLinkMaxAttempts = 5;
// Wrong codes an address takes in a day, from every account that asks for it together.
// A new code resets a code's 5 attempts, and the sign-in limits let about 25 codes an
// address through in 15 minutes: without this, someone could guess at another person's
// address (about 1 in 80 a day) and, once right, own it here, and with it that person's
// later Google sign-in (docs/decisions.md "An address takes 10 wrong e-mail link codes a day"). Over
// it, the address takes no code and no guess until the day's window ends: 10 guesses a
// day is 1 in 100,000 a day, and each such day mails the owner two codes they never asked
// for.
inline constexpr int64_t kEmailLinkMissesPerDay = 10;
inline constexpr int64_t kEmailLinkMissWindowS = 86400;

class EmailLink {
public:
    EmailLink(const Settings& s, const PasswordHasher& passwords, Db& db, Redis& redis)
        : passwords_(passwords), db_(db), redis_(redis), throttle_(s, redis, db) {}

    // `email` is canonical. 409 when it belongs to another account or this account has a
    // verified e-mail already, 429 when the address took kEmailLinkMissesPerDay wrong codes
    // within the day; the code replaces any earlier one of this user.
    // The mail is written in `language`, the account's.
    void request(int64_t user_id, std::string_view ip, const std::string& email, std::string_view password,
                 const std::string& language);
    // The linked address. 400 no live code / expired / wrong code, 429 after the 5th wrong
    // attempt (the code is dead then) or the address's kEmailLinkMissesPerDay-th, 409 when the address was taken meanwhile or the
    // account got a verified e-mail since the code was asked for (a merge).
    std::string confirm(int64_t user_id, std::string_view code);

private:
    const PasswordHasher& passwords_;
    Db& db_;
    Redis& redis_;
    AuthThrottle throttle_;
};

}  // namespace cabinet
