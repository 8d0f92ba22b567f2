#pragma once
// Brute-force limits of the web cabinet's login, register and verify: failures counted
// per client IP and per e-mail in a fixed window (AUTH_FAIL_LIMIT_IP, AUTH_FAIL_LIMIT_EMAIL,
// AUTH_FAIL_WINDOW_S). Counted in Redis; when Redis is unavailable, in PostgreSQL
// (auth_failures), because these limits matter (DESIGN "Data rules").
// Over the limit: ApiError 429 with Retry-After, thrown before any work (no hashing).
#include <string>
#include <string_view>

#include "cache/redis.hpp"
#include "config/settings.hpp"
#include "db/db.hpp"

namespace cabinet {

class AuthThrottle {
public:
    AuthThrottle(const Settings& s, Redis& redis, Db& db) : s_(s), redis_(redis), db_(db) {}

    // Throws 429 when the IP or (non-empty) e-mail has used up its failures.
    void check(std::string_view ip, std::string_view email);
    // Counts one failure for the IP and (non-empty) e-mail.
    void failed(std::string_view ip, std::string_view email);

private:
    // Seconds until the key's window ends when it is at `limit`, else 0.
    int64_t blocked_for(const std::string& key, int64_t limit);
    void hit(const std::string& key);

    const Settings& s_;
    Redis& redis_;
    Db& db_;
};

}  // namespace cabinet
