#include "services/panel_restore.hpp"

#include <spdlog/spdlog.h>

namespace cabinet {

PanelRestore::~PanelRestore() {
    if (std::uncaught_exceptions() <= unwinding_ || panel_.writes_acknowledged() == writes_) return;
    const auto& cur = locked_.subscription;
    // No panel user of ours before: the grant made or adopted one that nothing links to;
    // the next grant finds it again by Telegram id and overwrites it.
    if (!cur || cur->panel_uuid.empty()) return;
    try {
        // The panel takes no expiry in the past: what had ended, or was blocked, is disabled.
        const bool running = cur->expire_at > locked_.locked_at && cur->status != "disabled" && cur->status != "expired";
        if (running)
            panel_.update_user(cur->panel_uuid,
                               PanelUserState{cur->expire_at, cur->traffic_limit_bytes, cur->device_limit, true});
        else
            panel_.disable_user(cur->panel_uuid);
        spdlog::warn("user {}: the grant's transaction failed after the panel took it; panel user {} put back",
                     locked_.user.id, cur->panel_uuid);
    } catch (const std::exception& e) {
        spdlog::error("user {}: the grant's transaction failed after the panel took it, and putting panel user {} back"
                      " failed too ({}): the panel is ahead until the next grant",
                      locked_.user.id, cur->panel_uuid, e.what());
    }
}

}  // namespace cabinet
