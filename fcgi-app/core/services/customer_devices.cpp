#include "services/customer_devices.hpp"

#include <string>

#include "db/prepared.hpp"

namespace cabinet {

std::optional<CustomerDevices> customer_devices(Db& db, PanelClient& panel, int64_t user_id) {
    const auto row = db.read([&](auto& txn) { return exec_prepared(txn, "admin_customer_panel_user", user_id); });
    if (row.empty()) return std::nullopt;
    CustomerDevices out;
    if (!row[0]["device_limit"].is_null()) out.device_limit = row[0]["device_limit"].as<int64_t>();
    // Asked with no transaction open: the panel may take its time.
    if (!row[0]["uuid"].is_null()) out.items = panel.devices(row[0]["uuid"].c_str());
    return out;
}

}  // namespace cabinet
