#pragma once
// Brute-force limits of the web cabinet's login, register and verify (docs/decisions.md
// "Sign-in limits per source, a growing delay per e-mail"). Failures are counted in a fixed
// window (AUTH_FAIL_WINDOW_S) per client IP, per e-mail and source together, and per e-mail:
//  - an IP over AUTH_FAIL_LIMIT_IP, or an e-mail from one IP over AUTH_FAIL_LIMIT_EMAIL, is
//    refused until its window ends: a guesser locks out itself, not the owner;
//  - an e-mail over AUTH_FAIL_LIMIT_EMAIL from all sources together waits a delay after its
//    latest failure that doubles with each one (1 s, 2 s, 4 s ... at most kMaxEmailDelayS):
//    guessing from many addresses is slowed to one try per delay, and the owner is never
//    locked out for longer than that.
// Counted in Redis; when Redis is unavailable, in PostgreSQL (auth_failures), because these
// limits matter (DESIGN "Data rules"). Refused: ApiError 429 with Retry-After, thrown
// before any work (no hashing).
#include <string>
#include <string_view>

#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"
#include "db/web_auth_repo.hpp"

namespace cabinet {

inline constexpr int64_t kMaxEmailDelayS = 60;

// The per-e-mail delay after `failures` failures in the window: 0 up to `limit`, then
// 1, 2, 4 ... seconds, at most kMaxEmailDelayS.
int64_t email_delay_s(int64_t failures, int64_t limit);

// One password check at a time per e-mail. The limits above are read before a check and
// counted after it, so checks running in parallel would all pass the same reading: a burst
// of guesses as wide as the pool. Held for one check; a second one meanwhile gets 429 with
// Retry-After 1. In Redis (a key that expires by itself, should the process die holding
// it); when Redis is unavailable, a PostgreSQL advisory lock of the thread's connection.
class OneCheckPerEmail {
public:
    OneCheckPerEmail(Redis& redis, Db& db, std::string_view email);
    ~OneCheckPerEmail();
    OneCheckPerEmail(const OneCheckPerEmail&) = delete;
    OneCheckPerEmail& operator=(const OneCheckPerEmail&) = delete;

private:
    Redis& redis_;
    Db& db_;
    std::string key_;
    std::string holder_;     // the value set in Redis: only this holder deletes the key
    bool in_pg_ = false;     // held as a PostgreSQL advisory lock instead
};

class AuthThrottle {
public:
    AuthThrottle(const Settings& s, Redis& redis, Db& db) : s_(s), redis_(redis), db_(db) {}

    // Throws 429 when the IP, the e-mail from this IP, or the e-mail's delay says wait.
    void check(std::string_view ip, std::string_view email);
    // Counts one failure for the IP and (non-empty) e-mail.
    void failed(std::string_view ip, std::string_view email);

private:
    FailureCount read(const std::string& key);
    void hit(const std::string& key);

    const Settings& s_;
    Redis& redis_;
    Db& db_;
};

}  // namespace cabinet
