#include "services/traffic_refresh.hpp"

#include <spdlog/spdlog.h>

#include "db/prepared.hpp"
#include "panel/panel_errors.hpp"

namespace cabinet {

std::optional<int64_t> refresh_traffic_used(Db& db, PanelClient& panel, const Settings& s, int64_t user_id,
                                            const Subscription& sub, int64_t now) {
    if (sub.panel_uuid.empty() || now - sub.traffic_synced_at < s.traffic_fresh_s) return std::nullopt;
    try {
        const auto pu = panel.get_user(sub.panel_uuid);
        if (!pu) return std::nullopt;
        const int64_t used = pu->used_traffic_bytes;
        db.write([&](pqxx::work& txn) {
            exec_prepared(txn, "set_traffic_used", user_id, used);
            exec_prepared(txn, "upsert_traffic_snapshot", user_id, used);
        });
        return used;
    } catch (const PanelError& e) {
        spdlog::warn("user {} traffic: panel unavailable, showing the last synced value: {}", user_id, e.why());
        return std::nullopt;
    }
}

}  // namespace cabinet
