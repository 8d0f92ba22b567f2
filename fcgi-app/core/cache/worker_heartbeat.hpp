#pragma once
// The worker's heartbeat (SPEC "Health endpoints"): the worker stamps the time into Redis
// once a minute; /health/deep, /metrics and the owner's Overview read it back.
#include <cstdint>
#include <optional>

#include "cache/redis.hpp"

namespace cabinet {

// Stamps now; false when Redis did not take it. The key lives 10 minutes.
bool stamp_worker_heartbeat(Redis& redis);
// The last stamp (unix seconds); nullopt when none (or Redis is unavailable).
std::optional<int64_t> worker_heartbeat(Redis& redis);

}  // namespace cabinet
