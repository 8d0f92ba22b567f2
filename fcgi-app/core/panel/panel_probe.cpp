#include "panel/panel_probe.hpp"

#include <spdlog/spdlog.h>

#include "panel/panel_client.hpp"

namespace cabinet {

bool panel_version_acceptable(const Settings& s) {
    PanelClient panel(s.panel_base_url, s.panel_token, s.panel_connect_timeout_ms, s.panel_timeout_ms);
    try {
        const std::string v = panel.version();
        if (!version_at_least(v, kMinPanelVersion)) {
            spdlog::critical("panel at {} reports version {}, older than the supported minimum {}", s.panel_base_url, v,
                             kMinPanelVersion);
            return false;
        }
        spdlog::info("panel at {} reports version {}", s.panel_base_url, v);
    } catch (const PanelError& e) {
        spdlog::warn("panel at {} did not answer the version probe ({}); starting anyway", s.panel_base_url, e.why());
    }
    return true;
}

}  // namespace cabinet
