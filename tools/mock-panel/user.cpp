#include "user.hpp"

#include <algorithm>

#include "util/strings.hpp"

namespace mock {

const std::vector<std::string_view> kUserStatuses = {"ACTIVE", "DISABLED", "LIMITED", "EXPIRED"};
const std::vector<std::string_view> kResetStrategies = {"NO_RESET", "DAY", "WEEK", "MONTH", "MONTH_ROLLING"};

bool one_of(std::string_view value, const std::vector<std::string_view>& allowed) {
    return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

std::string view_status(const User& u, int64_t now_ms) {
    if (u.status != "ACTIVE") return u.status;
    if (u.expire_at <= now_ms) return "EXPIRED";
    if (u.traffic_limit_bytes > 0 && u.used_traffic_bytes >= u.traffic_limit_bytes) return "LIMITED";
    return "ACTIVE";
}

std::vector<Device> demo_devices(int64_t now_ms) {
    Device phone;
    phone.hwid = cabinet::random_hex(8);
    phone.platform = "iOS";
    phone.os_version = "17.5.1";
    phone.device_model = "iPhone15,2";
    phone.user_agent = "Happ/3.0.1/ios";
    phone.created_at = phone.updated_at = now_ms - 2 * 86400 * 1000LL;
    Device laptop;
    laptop.hwid = cabinet::random_hex(8);
    laptop.platform = "Windows";
    laptop.os_version = "10.0.22631";
    laptop.device_model = "PC";
    laptop.user_agent = "v2rayN/7.2.1";
    laptop.created_at = laptop.updated_at = now_ms - 86400 * 1000LL;
    return {phone, laptop};
}

}  // namespace mock
