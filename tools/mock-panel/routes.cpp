// The whole HTTP surface of the mock panel at a glance. Paths are the contract's
// (@remnawave/backend-contract 2.7.2, api/controllers/*.js) plus the spellings SPEC uses
// for the same things; a trailing slash is accepted on every path (router.hpp).
#include "handlers.hpp"
#include "ids.hpp"
#include "json_input.hpp"

namespace mock {

std::vector<Route> routes() {
    return {
        {"GET", "/api/system/metadata", get_metadata},
        {"GET", "/api/system/health", get_health},
        {"GET", "/api/internal-squads", get_internal_squads},
        {"GET", "/api/nodes", get_nodes},

        {"POST", "/api/users", create_user},
        {"GET", "/api/users", list_users},
        {"PATCH", "/api/users", update_user},
        {"GET", "/api/users/by-telegram-id/{telegramId}", get_users_by_telegram_id},
        {"GET", "/api/users/by-username/{username}", get_user_by_username},
        {"GET", "/api/users/{uuid}", get_user},
        {"PATCH", "/api/users/{uuid}", update_user_by_path},  // SPEC's spelling
        {"DELETE", "/api/users/{uuid}", delete_user},
        {"POST", "/api/users/{uuid}/actions/enable", enable_user},
        {"POST", "/api/users/{uuid}/actions/disable", disable_user},
        {"POST", "/api/users/{uuid}/actions/reset-traffic", reset_user_traffic},
        {"POST", "/api/users/{uuid}/actions/revoke", revoke_user_subscription},
        {"POST", "/api/users/{uuid}/actions/drop-connections", drop_user_connections},  // SPEC's spelling

        {"POST", "/api/hwid/devices/delete", delete_user_device},
        {"POST", "/api/hwid/devices/delete-all", delete_all_user_devices},
        {"GET", "/api/hwid/devices/{userUuid}", get_user_devices},

        {"POST", "/api/ip-control/fetch-ips/{uuid}", fetch_user_ips},
        {"GET", "/api/ip-control/fetch-ips/result/{jobId}", fetch_user_ips_result},
        {"POST", "/api/ip-control/fetch-users-ips/{nodeUuid}", fetch_node_users_ips},
        {"GET", "/api/ip-control/fetch-users-ips/result/{jobId}", fetch_node_users_ips_result},
        {"POST", "/api/ip-control/drop-connections", drop_connections},

        {"GET", "/api/sub/{shortUuid}", get_subscription},
        {"GET", "/sub/{shortUuid}", get_subscription},  // SPEC's spelling; subscriptionUrl points here

        {"GET", "/__mock/journal", get_journal},
        {"DELETE", "/__mock/journal", clear_journal},
        {"POST", "/__mock/fault", arm_fault},
        {"POST", "/__mock/reset-faults", reset_faults},
        {"POST", "/__mock/users/{uuid}/traffic", set_user_traffic},
    };
}

const std::string& uuid_param(const Call& call, size_t index, const char* name) {
    const std::string& v = call.params.at(index);
    if (!is_uuid(v)) throw ValidationError(name, "Invalid uuid");
    return v;
}

rapidjson::Document json_body(const Call& call, bool empty_ok) { return parse_object(call.req.body, empty_ok); }

}  // namespace mock
