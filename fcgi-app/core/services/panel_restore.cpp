#include "services/panel_restore.hpp"

#include <spdlog/spdlog.h>

#include "panel/panel_mark.hpp"

namespace cabinet {

void put_panel_back(PanelClient& panel, const LockedAccount& locked) {
    const auto& cur = locked.subscription;
    // No panel user of ours before: the grant made or adopted one that nothing links to;
    // the next grant finds it again by Telegram id and overwrites it.
    if (!cur || cur->panel_uuid.empty()) return;
    const std::string description = panel_description(locked.user.id);
    // The panel takes no expiry in the past: what had ended, or was blocked, is disabled.
    const bool running = cur->expire_at > locked.locked_at && cur->status != SubscriptionStatus::disabled && cur->status != SubscriptionStatus::expired;
    if (running)
        panel.update_user(cur->panel_uuid, PanelUserState{cur->expire_at, cur->traffic_limit_bytes, cur->device_limit,
                                                          true, std::nullopt, description});
    else
        panel.disable_user(cur->panel_uuid, description);
}

PanelRestore::~PanelRestore() {
    if (std::uncaught_exceptions() <= unwinding_ || panel_.writes_acknowledged() == writes_) return;
    const auto& cur = locked_.subscription;
    if (!cur || cur->panel_uuid.empty()) return;
    try {
        put_panel_back(panel_, locked_);
        spdlog::warn("user {}: the grant's transaction failed after the panel took it; panel user {} put back",
                     locked_.user.id, cur->panel_uuid);
    } catch (const std::exception& e) {
        spdlog::error("user {}: the grant's transaction failed after the panel took it, and putting panel user {} back"
                      " failed too ({}): the next panel sync puts it back",
                      locked_.user.id, cur->panel_uuid, e.what());
    }
}

}  // namespace cabinet
