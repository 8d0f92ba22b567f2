#include "auth/throttle.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "db/web_auth_repo.hpp"
#include "errors.hpp"

namespace cabinet {
namespace {

std::string ip_key(std::string_view ip) { return "authfail:ip:" + std::string(ip); }
std::string email_key(std::string_view email) { return "authfail:email:" + std::string(email); }

}  // namespace

int64_t AuthThrottle::blocked_for(const std::string& key, int64_t limit) {
    if (auto c = redis_.counter(key)) return c->value >= limit ? std::max<int64_t>(c->ttl_s, 1) : 0;
    const FailureCount c = db_.read([&](auto& txn) { return auth_failure_count(txn, key, s_.auth_fail_window_s); });
    return c.count >= limit ? std::max<int64_t>(c.retry_after_s, 1) : 0;
}

void AuthThrottle::hit(const std::string& key) {
    if (redis_.incr_window(key, s_.auth_fail_window_s)) return;
    spdlog::debug("redis unavailable: counting an auth failure in PostgreSQL");
    db_.write([&](pqxx::work& txn) { auth_failure_hit(txn, key, s_.auth_fail_window_s); });
}

void AuthThrottle::check(std::string_view ip, std::string_view email) {
    int64_t wait = ip.empty() ? 0 : blocked_for(ip_key(ip), s_.auth_fail_limit_ip);
    if (!email.empty()) wait = std::max(wait, blocked_for(email_key(email), s_.auth_fail_limit_email));
    if (wait == 0) return;
    ApiError e(429, "too many attempts, try again later");
    e.headers.emplace_back("Retry-After", std::to_string(wait));
    throw e;
}

void AuthThrottle::failed(std::string_view ip, std::string_view email) {
    if (!ip.empty()) hit(ip_key(ip));
    if (!email.empty()) hit(email_key(email));
}

}  // namespace cabinet
