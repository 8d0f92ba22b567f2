#pragma once
// A thread's own Redis context (hiredis). Redis only holds what may be lost, so every
// call degrades instead of throwing: a dead server gives nullopt/false within the
// configured timeout, and reconnects are spaced out so an outage costs no time per request.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "metrics/counter.hpp"

struct redisContext;

namespace cabinet {

struct RedisTarget {
    std::string host;        // empty when unix socket
    int port = 6379;
    std::string unix_path;   // set for unix://
    int db = 0;
};
// Parses redis://[:password@]host[:port][/db] and unix:///path[?db=N]. Throws ConfigError.
RedisTarget parse_redis_url(const std::string& url);

class Redis {
public:
    Redis(RedisTarget target, int64_t timeout_ms);
    ~Redis();
    Redis(const Redis&) = delete;
    Redis& operator=(const Redis&) = delete;

    // PING now, reconnecting first if needed even inside the back-off window.
    bool ping();
    std::optional<std::string> get(std::string_view key);
    bool set(std::string_view key, std::string_view value, int64_t ttl_s = 0);
    // SET key value NX EX ttl: true when this call created the key.
    std::optional<bool> set_nx(std::string_view key, std::string_view value, int64_t ttl_s);
    // DEL key, only while it still holds `value` (one script, so a key that expired and was
    // set again by someone else is left alone): true when deleted.
    std::optional<bool> del_if(std::string_view key, std::string_view value);

    // A fixed-window counter: SET key 0 NX EX ttl, then INCR (INCR keeps the TTL, so a
    // crash between the two can never leave a counter without expiry). The new value.
    std::optional<int64_t> incr_window(std::string_view key, int64_t ttl_s);
    struct Counter {
        int64_t value = 0;  // 0 when the key does not exist
        int64_t ttl_s = 0;  // seconds left, 0 when none
    };
    // GET + TTL of a counter made by incr_window.
    std::optional<Counter> counter(std::string_view key);

    // Counts every round trip attempted and the ones that failed (no connection, I/O
    // error, timeout). Set once by a pool thread; unset, nothing is counted.
    void count_into(metrics::CallCounters c) { counters_ = c; }

private:
    redisContext* ready(bool force);      // a round trip starts: counted
    redisContext* connected(bool force);  // the context, connecting if due
    void failed();                        // an I/O error: counted, context dropped
    // Two commands in one round trip: `append(ctx)` appends them (redisAppendCommand), their
    // replies land in `first` and `second`. False when Redis is not there or failed.
    template <typename Append, typename Reply>
    bool two_commands(Append append, Reply& first, Reply& second);
    void drop();

    RedisTarget target_;
    int64_t timeout_ms_;
    redisContext* ctx_ = nullptr;
    std::chrono::steady_clock::time_point next_attempt_{};
    metrics::CallCounters counters_;
};

}  // namespace cabinet
