#include "auth/throttle.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "errors.hpp"
#include "util/client_net.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"
#include "util/web_tokens.hpp"

namespace cabinet {
namespace {

// A client address counts by its network (util/client_net.hpp: an IPv6 /64).
std::string ip_key(std::string_view ip) { return "authfail:ip:" + client_net(ip); }
std::string email_key(std::string_view email) { return "authfail:email:" + std::string(email); }
std::string pair_key(std::string_view email, std::string_view ip) {
    return "authfail:pair:" + std::string(email) + "|" + client_net(ip);
}
std::string last_key(const std::string& key) { return key + ":last"; }

// Seconds until a fixed-window counter at `limit` lets its key try again, else 0.
int64_t window_wait(const FailureCount& c, int64_t limit) {
    return c.count >= limit ? std::max<int64_t>(c.retry_after_s, 1) : 0;
}

constexpr int64_t kCheckHoldS = 10;  // longer than a check with its wait for a hashing slot

ApiError busy_with_another_check() { return retry_later(429, "too many attempts, try again later", 1, "too_many_attempts"); }

}  // namespace

OneCheckPerEmail::OneCheckPerEmail(Redis& redis, Db& db, std::string_view email)
    : redis_(redis), db_(db), key_("authcheck:" + std::string(email)), holder_(new_opaque_token()) {
    if (const auto got = redis_.set_nx(key_, holder_, kCheckHoldS)) {
        if (!*got) throw busy_with_another_check();
        return;
    }
    const bool got = db_.read([&](auto& txn) {
        return txn.exec_params1("SELECT pg_try_advisory_lock(hashtextextended($1, 0))", key_)[0].template as<bool>();
    });
    if (!got) throw busy_with_another_check();
    in_pg_ = true;
}

OneCheckPerEmail::~OneCheckPerEmail() {
    try {
        if (in_pg_) db_.read([&](auto& txn) { txn.exec_params("SELECT pg_advisory_unlock(hashtextextended($1, 0))", key_); });
        else redis_.del_if(key_, holder_);  // unreachable Redis: the key expires by itself
    } catch (const std::exception& e) {
        // A lost connection took its advisory lock with it.
        spdlog::warn("releasing the password check of an e-mail: {}", e.what());
    }
}

int64_t email_delay_s(int64_t failures, int64_t limit) {
    if (failures < limit) return 0;
    const int64_t doublings = std::min<int64_t>(failures - limit, 16);
    return std::min<int64_t>(int64_t{1} << doublings, kMaxEmailDelayS);
}

FailureCount AuthThrottle::read(const std::string& key) {
    if (auto c = redis_.counter(key)) {
        int64_t last = 0;
        if (c->value > 0) {
            const auto stamp = redis_.get(last_key(key));
            if (!stamp || !parse_int64(*stamp, last)) last = unix_now();  // unknown: as if just now
        }
        return FailureCount{c->value, c->ttl_s, last};
    }
    return db_.read([&](auto& txn) { return auth_failure_count(txn, key, s_.auth_fail_window_s); });
}

void AuthThrottle::hit(const std::string& key) {
    if (redis_.incr_window(key, s_.auth_fail_window_s)) {
        redis_.set(last_key(key), std::to_string(unix_now()), s_.auth_fail_window_s);
        return;
    }
    spdlog::debug("redis unavailable: counting an auth failure in PostgreSQL");
    db_.write([&](pqxx::work& txn) { auth_failure_hit(txn, key, s_.auth_fail_window_s); });
}

void AuthThrottle::check(std::string_view ip, std::string_view email) {
    int64_t wait = ip.empty() ? 0 : window_wait(read(ip_key(ip)), s_.auth_fail_limit_ip);
    if (!email.empty()) {
        wait = std::max(wait, window_wait(read(pair_key(email, ip)), s_.auth_fail_limit_email));
        const FailureCount all = read(email_key(email));
        const int64_t delay = email_delay_s(all.count, s_.auth_fail_limit_email);
        if (delay > 0) wait = std::max(wait, all.last_unix + delay - unix_now());
    }
    if (wait <= 0) return;
    throw retry_later(429, "too many attempts, try again later", wait, "too_many_attempts");
}

void AuthThrottle::failed(std::string_view ip, std::string_view email) {
    if (!ip.empty()) hit(ip_key(ip));
    if (!email.empty()) {
        hit(pair_key(email, ip));
        hit(email_key(email));
    }
}

}  // namespace cabinet
