#pragma once
// Every endpoint of the mock panel; routes.cpp binds them to methods and paths.
#include <string>
#include <vector>

#include "router.hpp"
#include "services.hpp"
#include "util/json.hpp"

namespace mock {

std::vector<Route> routes();

// Shared by the handler files.
const std::string& uuid_param(const Call& call, size_t index, const char* name);
rapidjson::Document json_body(const Call& call, bool empty_ok = false);

// system, squads, nodes (handlers_system.cpp)
void get_metadata(Services& s, Call& c);
void get_health(Services& s, Call& c);
void get_internal_squads(Services& s, Call& c);
void get_nodes(Services& s, Call& c);

// users (handlers_users.cpp)
void create_user(Services& s, Call& c);
void list_users(Services& s, Call& c);
void get_user(Services& s, Call& c);
void get_users_by_telegram_id(Services& s, Call& c);
void get_user_by_username(Services& s, Call& c);
void update_user(Services& s, Call& c);           // PATCH /api/users, uuid or username in the body
void update_user_by_path(Services& s, Call& c);   // PATCH /api/users/{uuid}
void delete_user(Services& s, Call& c);
void enable_user(Services& s, Call& c);
void disable_user(Services& s, Call& c);
void reset_user_traffic(Services& s, Call& c);
void set_user_traffic(Services& s, Call& c);      // test hook: POST /__mock/users/{uuid}/traffic
void revoke_user_subscription(Services& s, Call& c);
void drop_user_connections(Services& s, Call& c);

// HWID devices (handlers_devices.cpp)
void get_user_devices(Services& s, Call& c);
void delete_user_device(Services& s, Call& c);
void delete_all_user_devices(Services& s, Call& c);

// ip-control (handlers_ip_control.cpp)
void fetch_user_ips(Services& s, Call& c);
void fetch_user_ips_result(Services& s, Call& c);
void fetch_node_users_ips(Services& s, Call& c);
void fetch_node_users_ips_result(Services& s, Call& c);
void drop_connections(Services& s, Call& c);

// the subscription link (handlers_subscription.cpp)
void get_subscription(Services& s, Call& c);

// test hooks under /__mock/ (handlers_mock.cpp)
void get_journal(Services& s, Call& c);
void clear_journal(Services& s, Call& c);
void arm_fault(Services& s, Call& c);
void reset_faults(Services& s, Call& c);

}  // namespace mock
