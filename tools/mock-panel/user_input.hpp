#pragma once
// The request bodies of the user endpoints, checked the way the contract's zod schemas
// check them (CreateUserCommand, UpdateUserCommand, RevokeUserSubscriptionCommand). Keys
// the schema does not know are ignored, as zod's default object() does.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "json_input.hpp"
#include "user.hpp"

namespace mock {

struct CreateUserInput {
    std::string username;
    std::string status = "ACTIVE";
    std::optional<std::string> short_uuid, trojan_password, vless_uuid, ss_password, uuid;
    std::optional<int64_t> traffic_limit_bytes;
    std::string traffic_limit_strategy = "NO_RESET";
    int64_t expire_at = 0;
    std::optional<int64_t> created_at, last_traffic_reset_at;
    std::optional<std::string> description, tag, email, external_squad_uuid;
    std::optional<int64_t> telegram_id, hwid_device_limit;
    std::vector<std::string> active_internal_squads;
};

struct UpdateUserInput {
    std::optional<std::string> uuid, username;  // which user: uuid first, else username
    std::optional<std::string> status;          // ACTIVE or DISABLED only
    std::optional<int64_t> traffic_limit_bytes;
    std::optional<std::string> traffic_limit_strategy;
    std::optional<int64_t> expire_at;
    Nullable<std::string> description, tag, email, external_squad_uuid;
    Nullable<int64_t> telegram_id, hwid_device_limit;
    std::optional<std::vector<std::string>> active_internal_squads;
};

struct RevokeInput {
    bool revoke_only_passwords = false;
    std::optional<std::string> short_uuid;
};

CreateUserInput parse_create_user(const rapidjson::Value& body);
// `path_uuid`: the {uuid} of PATCH /api/users/{uuid}, which wins over a body uuid.
UpdateUserInput parse_update_user(const rapidjson::Value& body, const std::optional<std::string>& path_uuid, int64_t now_ms);
RevokeInput parse_revoke(const rapidjson::Value& body);

// A new user from a checked create request.
User make_user(const CreateUserInput& in, int64_t id, int64_t now_ms);
// Applies a checked update the way the real panel does (an EXPIRED user with a new future
// expireAt and a LIMITED user with a higher limit become ACTIVE again).
void apply_update(User& u, const UpdateUserInput& in, int64_t now_ms);

// Unknown squad UUIDs are refused (squad_not_found), as the real panel cannot link them.
void check_squads(const std::vector<std::string>& squad_uuids);

}  // namespace mock
