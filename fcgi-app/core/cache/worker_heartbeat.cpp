#include "cache/worker_heartbeat.hpp"

#include <string>

#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {
constexpr const char* kHeartbeatKey = "cabinet:worker:heartbeat";
constexpr int64_t kHeartbeatTtlS = 600;
}  // namespace

bool stamp_worker_heartbeat(Redis& redis) { return redis.set(kHeartbeatKey, std::to_string(unix_now()), kHeartbeatTtlS); }

std::optional<int64_t> worker_heartbeat(Redis& redis) {
    const auto stamp = redis.get(kHeartbeatKey);
    int64_t at = 0;
    if (!stamp || !parse_int64(*stamp, at)) return std::nullopt;
    return at;
}

}  // namespace cabinet
