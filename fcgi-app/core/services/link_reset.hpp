#pragma once
// POST /api/cabinet/subscription/reset-devices (alias reset-link): revoke the subscription
// link on the panel (the old one dies at once) and drop connections. The new link is stored
// whatever the drop does: after the revoke only the new one works, and a failed drop
// leaves sessions that end when their client next fetches the dead link. Once per 10 minutes
// per user, enforced in PostgreSQL under the user's row lock so it holds without Redis;
// nginx's limit_req only shields against floods.
#include <cstdint>
#include <string>

#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

// The new subscription URL. 404 no_subscription, 429 reset_too_soon (Retry-After), 502 panel.
std::string reset_subscription_link(Db& db, PanelClient& panel, int64_t user_id);

}  // namespace cabinet
