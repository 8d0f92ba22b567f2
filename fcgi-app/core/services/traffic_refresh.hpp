#pragma once
// GET /traffic's current figure: the panel is asked only when the stored one is older than
// TRAFFIC_FRESH_S (issue 17: the chart's reloads cost the panel nothing in between), and its
// answer is stored with today's point of the chart.
#include <cstdint>
#include <optional>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/account.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

// The panel's figure when it was asked and answered (then stored: the caller's cached
// account is stale); nullopt when the stored figure is fresh, the subscription has no panel
// user, or the panel is unavailable (logged; the stored figure stands).
std::optional<int64_t> refresh_traffic_used(Db& db, PanelClient& panel, const Settings& s, int64_t user_id,
                                            const Subscription& sub, int64_t now);

}  // namespace cabinet
