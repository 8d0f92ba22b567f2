#include "cache/redis.hpp"

#include <hiredis/hiredis.h>
#include <spdlog/spdlog.h>

#include <memory>

#include "errors.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr auto kReconnectBackoff = std::chrono::milliseconds(500);

struct ReplyFree {
    void operator()(redisReply* r) const { freeReplyObject(r); }
};
using Reply = std::unique_ptr<redisReply, ReplyFree>;

timeval to_timeval(int64_t ms) { return timeval{static_cast<time_t>(ms / 1000), static_cast<suseconds_t>((ms % 1000) * 1000)}; }

// Two commands already appended with redisAppendCommand: one round trip, replies in order.
// False after an I/O error (the caller drops the context).
bool two_replies(redisContext* c, Reply& first, Reply& second) {
    void* raw = nullptr;
    if (redisGetReply(c, &raw) != REDIS_OK) return false;
    first.reset(static_cast<redisReply*>(raw));
    raw = nullptr;
    if (redisGetReply(c, &raw) != REDIS_OK) return false;
    second.reset(static_cast<redisReply*>(raw));
    return first && second;
}

}  // namespace

RedisTarget parse_redis_url(const std::string& url) {
    RedisTarget t;
    if (starts_with(url, "unix://")) {
        std::string rest = url.substr(7);
        if (auto q = rest.find("?db="); q != std::string::npos) {
            int64_t db = 0;
            if (!parse_int64(rest.substr(q + 4), db) || db < 0 || db > 15) throw ConfigError("REDIS_URL: bad db number");
            t.db = static_cast<int>(db);
            rest.resize(q);
        }
        if (rest.empty() || rest.front() != '/') throw ConfigError("REDIS_URL: unix:// needs an absolute path");
        t.unix_path = rest;
        return t;
    }
    if (!starts_with(url, "redis://")) throw ConfigError("REDIS_URL: must start with redis:// or unix://");
    std::string rest = url.substr(8);
    if (auto at = rest.rfind('@'); at != std::string::npos) rest = rest.substr(at + 1);  // no AUTH support yet
    if (auto slash = rest.find('/'); slash != std::string::npos) {
        int64_t db = 0;
        const std::string db_part = rest.substr(slash + 1);
        if (!db_part.empty() && (!parse_int64(db_part, db) || db < 0 || db > 15)) throw ConfigError("REDIS_URL: bad db number");
        t.db = static_cast<int>(db);
        rest.resize(slash);
    }
    if (auto colon = rest.rfind(':'); colon != std::string::npos) {
        int64_t port = 0;
        if (!parse_int64(rest.substr(colon + 1), port) || port <= 0 || port > 65535) throw ConfigError("REDIS_URL: bad port");
        t.port = static_cast<int>(port);
        rest.resize(colon);
    }
    if (rest.empty()) throw ConfigError("REDIS_URL: host is missing");
    t.host = rest;
    return t;
}

Redis::Redis(RedisTarget target, int64_t timeout_ms) : target_(std::move(target)), timeout_ms_(timeout_ms) {}

Redis::~Redis() { drop(); }

void Redis::drop() {
    if (ctx_) redisFree(ctx_);
    ctx_ = nullptr;
}

redisContext* Redis::ready(bool force) {
    counters_.calls.add();
    redisContext* c = connected(force);
    if (!c) counters_.errors.add();
    return c;
}

void Redis::failed() {
    counters_.errors.add();
    drop();
}

redisContext* Redis::connected(bool force) {
    if (ctx_) return ctx_;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now < next_attempt_) return nullptr;
    next_attempt_ = now + kReconnectBackoff;
    const timeval tv = to_timeval(timeout_ms_);
    redisContext* c = target_.unix_path.empty() ? redisConnectWithTimeout(target_.host.c_str(), target_.port, tv)
                                                : redisConnectUnixWithTimeout(target_.unix_path.c_str(), tv);
    if (!c || c->err) {
        spdlog::debug("redis connect failed: {}", c ? c->errstr : "out of memory");
        if (c) redisFree(c);
        return nullptr;
    }
    // redisConnectWithTimeout times only the connect; commands need their own timeout.
    redisSetTimeout(c, tv);
    ctx_ = c;
    if (target_.db != 0) {
        Reply r(static_cast<redisReply*>(redisCommand(ctx_, "SELECT %d", target_.db)));
        if (!r || r->type == REDIS_REPLY_ERROR) {
            drop();
            return nullptr;
        }
    }
    return ctx_;
}

bool Redis::ping() {
    redisContext* c = ready(true);
    if (!c) return false;
    Reply r(static_cast<redisReply*>(redisCommand(c, "PING")));
    if (!r) {
        failed();  // after any I/O error the context is unusable
        return false;
    }
    return r->type == REDIS_REPLY_STATUS;
}

std::optional<std::string> Redis::get(std::string_view key) {
    redisContext* c = ready(false);
    if (!c) return std::nullopt;
    Reply r(static_cast<redisReply*>(redisCommand(c, "GET %b", key.data(), key.size())));
    if (!r) {
        failed();
        return std::nullopt;
    }
    if (r->type != REDIS_REPLY_STRING) return std::nullopt;
    return std::string(r->str, r->len);
}

bool Redis::set(std::string_view key, std::string_view value, int64_t ttl_s) {
    redisContext* c = ready(false);
    if (!c) return false;
    Reply r(ttl_s > 0 ? static_cast<redisReply*>(redisCommand(c, "SET %b %b EX %lld", key.data(), key.size(),
                                                               value.data(), value.size(), static_cast<long long>(ttl_s)))
                      : static_cast<redisReply*>(redisCommand(c, "SET %b %b", key.data(), key.size(), value.data(), value.size())));
    if (!r) {
        failed();
        return false;
    }
    return r->type == REDIS_REPLY_STATUS;
}

std::optional<bool> Redis::set_nx(std::string_view key, std::string_view value, int64_t ttl_s) {
    redisContext* c = ready(false);
    if (!c) return std::nullopt;
    Reply r(static_cast<redisReply*>(redisCommand(c, "SET %b %b NX EX %lld", key.data(), key.size(), value.data(),
                                                  value.size(), static_cast<long long>(ttl_s))));
    if (!r) {
        failed();
        return std::nullopt;
    }
    if (r->type == REDIS_REPLY_STATUS) return true;
    if (r->type == REDIS_REPLY_NIL) return false;
    return std::nullopt;
}

std::optional<bool> Redis::del_if(std::string_view key, std::string_view value) {
    redisContext* c = ready(false);
    if (!c) return std::nullopt;
    static constexpr const char* kScript =
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
    Reply r(static_cast<redisReply*>(
        redisCommand(c, "EVAL %s 1 %b %b", kScript, key.data(), key.size(), value.data(), value.size())));
    if (!r) {
        failed();
        return std::nullopt;
    }
    if (r->type != REDIS_REPLY_INTEGER) return std::nullopt;
    return r->integer == 1;
}

template <typename Append, typename ReplyPtr>
bool Redis::two_commands(Append append, ReplyPtr& first, ReplyPtr& second) {
    redisContext* c = ready(false);
    if (!c) return false;
    append(c);
    if (two_replies(c, first, second)) return true;
    failed();
    return false;
}

std::optional<int64_t> Redis::incr_window(std::string_view key, int64_t ttl_s) {
    Reply set, incr;
    const bool answered = two_commands(
        [&](redisContext* c) {
            redisAppendCommand(c, "SET %b 0 NX EX %lld", key.data(), key.size(), static_cast<long long>(ttl_s));
            redisAppendCommand(c, "INCR %b", key.data(), key.size());
        },
        set, incr);
    if (!answered) return std::nullopt;
    if (incr->type != REDIS_REPLY_INTEGER) return std::nullopt;
    return static_cast<int64_t>(incr->integer);
}

std::optional<Redis::Counter> Redis::counter(std::string_view key) {
    Reply get, ttl;
    const bool answered = two_commands(
        [&](redisContext* c) {
            redisAppendCommand(c, "GET %b", key.data(), key.size());
            redisAppendCommand(c, "TTL %b", key.data(), key.size());
        },
        get, ttl);
    if (!answered) return std::nullopt;
    if (ttl->type != REDIS_REPLY_INTEGER) return std::nullopt;
    Counter out;
    if (get->type == REDIS_REPLY_STRING && !parse_int64(std::string_view(get->str, get->len), out.value)) return std::nullopt;
    out.ttl_s = ttl->integer > 0 ? static_cast<int64_t>(ttl->integer) : 0;
    return out;
}

}  // namespace cabinet
