#pragma once
// The owner's view of a customer's devices (GET /api/admin/customers/{id}/devices): the
// panel's list for the customer's panel user, and the subscription's device limit.
#include <cstdint>
#include <optional>
#include <vector>

#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

struct CustomerDevices {
    std::vector<PanelDevice> items;     // none without a panel user
    std::optional<int64_t> device_limit;  // none without a subscription
};

// nullopt: no customer with that id. A panel failure throws PanelError (502).
std::optional<CustomerDevices> customer_devices(Db& db, PanelClient& panel, int64_t user_id);

}  // namespace cabinet
