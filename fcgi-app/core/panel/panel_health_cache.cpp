#include "panel/panel_health_cache.hpp"

namespace cabinet {

bool PanelHealthCache::alive(const std::function<bool()>& probe) const {
    {
        std::lock_guard lock(mutex_);
        const bool fresh = known_ && std::chrono::steady_clock::now() - probed_at_ < ttl_;
        if (fresh || probing_) return alive_;
        probing_ = true;
    }
    bool result = false;
    try {
        result = probe();
    } catch (...) {
        result = false;  // a probe that throws is a panel we cannot reach
    }
    std::lock_guard lock(mutex_);
    alive_ = result;
    known_ = true;
    probing_ = false;
    probed_at_ = std::chrono::steady_clock::now();
    return result;
}

}  // namespace cabinet
