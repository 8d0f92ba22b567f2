#pragma once
#include "config/settings.hpp"

namespace cabinet {

// Start-up probe: logs the panel's version and refuses (false) a panel older than
// kMinPanelVersion. A panel that does not answer is only a warning: the cabinet starts, and
// panel calls fail with 502 until it is back.
bool panel_version_acceptable(const Settings& s);

}  // namespace cabinet
