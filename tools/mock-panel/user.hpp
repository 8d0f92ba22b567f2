#pragma once
// A panel user as the mock stores it: the contract's UsersSchema plus traffic counters and
// the user's HWID devices (which the real panel keeps in its own table).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mock {

struct Device {
    std::string hwid;
    std::optional<std::string> platform, os_version, device_model, user_agent;
    int64_t created_at = 0;  // Unix ms, like every time below
    int64_t updated_at = 0;
};

struct User {
    std::string uuid;
    int64_t id = 0;
    std::string short_uuid;
    std::string username;
    std::string status = "ACTIVE";  // as set; see view_status() for what clients see
    int64_t traffic_limit_bytes = 0;  // 0: unlimited
    std::string traffic_limit_strategy = "NO_RESET";
    int64_t expire_at = 0;
    std::optional<int64_t> telegram_id;
    std::optional<std::string> email, description, tag;
    std::optional<int64_t> hwid_device_limit;
    std::optional<std::string> external_squad_uuid;
    std::string trojan_password, vless_uuid, ss_password;
    int64_t last_triggered_threshold = 0;
    std::optional<int64_t> sub_revoked_at, last_traffic_reset_at;
    int64_t created_at = 0, updated_at = 0;
    std::vector<std::string> active_internal_squads;  // squad UUIDs
    int64_t used_traffic_bytes = 0, lifetime_used_traffic_bytes = 0;
    std::optional<int64_t> online_at, first_connected_at;
    std::optional<std::string> last_connected_node_uuid;
    std::vector<Device> devices;
};

extern const std::vector<std::string_view> kUserStatuses;    // USERS_STATUS
extern const std::vector<std::string_view> kResetStrategies;  // RESET_PERIODS
bool one_of(std::string_view value, const std::vector<std::string_view>& allowed);

// The real panel's cron turns ACTIVE users EXPIRED or LIMITED; the mock has no cron, so it
// works the status out whenever a user is shown. DISABLED and explicit states stay as set.
std::string view_status(const User& u, int64_t now_ms);

// Two devices a fresh user "already has", so device screens have something to show.
std::vector<Device> demo_devices(int64_t now_ms);

}  // namespace mock
