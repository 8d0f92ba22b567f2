#pragma once
// The parts of the Remnawave panel's user and device models (backend-contract 2.7.x) that
// the cabinet uses, as plain values.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cabinet {

struct PanelUser {
    std::string uuid;
    std::string short_uuid;
    std::string username;
    std::string status;  // ACTIVE, DISABLED, LIMITED, EXPIRED
    int64_t expire_at = 0;  // Unix seconds
    int64_t traffic_limit_bytes = 0;  // 0 = unlimited
    int64_t used_traffic_bytes = 0;
    std::optional<int64_t> telegram_id;
    std::optional<int64_t> hwid_device_limit;
    std::string subscription_url;
    std::string description;  // panel_mark.hpp reads our write mark from it
};

// One page of the panel's user list (GET /api/users?start=&size=) and how many users the
// panel holds in all.
struct PanelUserPage {
    std::vector<PanelUser> users;
    int64_t total = 0;
};

// What the cabinet wants a panel user to be: absolute values, so a retried write converges.
struct PanelUserState {
    int64_t expire_at = 0;
    int64_t traffic_limit_bytes = 0;
    int64_t device_limit = 0;
    bool enabled = true;
    // The panel's trafficLimitStrategy; unset: not sent, the panel keeps what it has (and a
    // new user gets the panel's default, NO_RESET).
    std::optional<std::string> traffic_strategy = std::nullopt;
    // The panel user's description (panel_mark.hpp); empty: not sent, the panel keeps its own.
    std::string description = {};
};

struct PanelDevice {
    std::string hwid;
    std::string platform;
    std::string os_version;
    std::string device_model;
    std::string user_agent;
    int64_t created_at = 0;
};

}  // namespace cabinet
