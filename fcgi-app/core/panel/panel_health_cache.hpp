#pragma once
// The panel's state as GET /health/deep reports it, probed at most once per TTL by one
// thread of the process. /health/deep is public: asked a few times a second while the
// panel is slow, a probe per request would hold every pool thread on the panel's timeout.
// The local checks (database, Redis, worker heartbeat) stay live on every request; only the
// panel, the one remote and informational part, is cached (docs/decisions.md).
#include <chrono>
#include <functional>
#include <mutex>

namespace cabinet {

class PanelHealthCache {
public:
    explicit PanelHealthCache(int64_t ttl_ms) : ttl_(std::chrono::milliseconds(ttl_ms)) {}
    PanelHealthCache(const PanelHealthCache&) = delete;
    PanelHealthCache& operator=(const PanelHealthCache&) = delete;

    // The last known state, refreshed by `probe` when older than the TTL. While one thread
    // probes, every other caller answers at once with the last known state (false before
    // the first probe has ended): never two probes in flight, never a caller waiting.
    // Const and thread-safe: it lives in the process's read-only Shared.
    bool alive(const std::function<bool()>& probe) const;

private:
    const std::chrono::steady_clock::duration ttl_;
    mutable std::mutex mutex_;
    mutable bool known_ = false;
    mutable bool alive_ = false;
    mutable bool probing_ = false;
    mutable std::chrono::steady_clock::time_point probed_at_{};
};

}  // namespace cabinet
