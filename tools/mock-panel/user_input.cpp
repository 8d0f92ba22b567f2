#include "user_input.hpp"

#include "catalog.hpp"
#include "ids.hpp"

namespace mock {
namespace {

bool all_chars(const std::string& s, bool (*ok)(char)) {
    for (char c : s)
        if (!ok(c)) return false;
    return true;
}
bool username_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}
bool tag_char(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

// Close to zod's email(): local@domain.tld, no spaces, no leading/double dots.
bool plausible_email(const std::string& s) {
    const auto at = s.find('@');
    if (at == std::string::npos || at == 0 || s.find('@', at + 1) != std::string::npos) return false;
    const std::string local = s.substr(0, at), domain = s.substr(at + 1);
    if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string::npos) return false;
    for (char c : local)
        if (!(username_char(c) || c == '.' || c == '+' || c == '\'')) return false;
    const auto dot = domain.rfind('.');
    if (dot == std::string::npos || dot == 0 || domain.size() - dot - 1 < 2) return false;
    for (size_t i = 0; i < domain.size(); ++i) {
        const char c = domain[i];
        const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (i > dot ? !letter : !(letter || (c >= '0' && c <= '9') || c == '-' || c == '.')) return false;
    }
    return domain.find("..") == std::string::npos && domain.front() != '-';
}

void check_length(const Fields& f, const char* key, const std::optional<std::string>& v, size_t min, size_t max) {
    if (v && (v->size() < min || v->size() > max))
        throw ValidationError(f.path(key), std::string(key) + " must be " + std::to_string(min) + "-" +
                                               std::to_string(max) + " characters");
}

void check_uuid(const Fields& f, const char* key, const std::optional<std::string>& v) {
    if (v && !is_uuid(*v)) throw ValidationError(f.path(key), "Invalid uuid");
}

void check_non_negative(const Fields& f, const char* key, const std::optional<int64_t>& v) {
    if (v && *v < 0) throw ValidationError(f.path(key), std::string(key) + " must be greater than 0");
}

void check_tag(const Fields& f, const std::optional<std::string>& tag) {
    if (tag && (tag->size() > 16 || !all_chars(*tag, tag_char)))
        throw ValidationError(f.path("tag"), "Tag can only contain uppercase letters, numbers, underscores");
}

void check_email(const Fields& f, const std::optional<std::string>& email) {
    if (email && !plausible_email(*email)) throw ValidationError(f.path("email"), "Invalid email format");
}

std::optional<std::string> strategy(const Fields& f) {
    auto v = f.opt_string("trafficLimitStrategy");
    if (v && !one_of(*v, kResetStrategies)) throw ValidationError(f.path("trafficLimitStrategy"), "Invalid traffic limit strategy");
    return v;
}

std::optional<std::vector<std::string>> squad_list(const Fields& f) {
    auto v = f.opt_string_array("activeInternalSquads");
    if (v)
        for (size_t i = 0; i < v->size(); ++i)
            if (!is_uuid((*v)[i])) throw ValidationError(f.path("activeInternalSquads.") + std::to_string(i), "Invalid uuid");
    return v;
}

template <class T>
std::optional<T> value_of(const Nullable<T>& v) {
    return v ? *v : std::nullopt;
}

}  // namespace

CreateUserInput parse_create_user(const rapidjson::Value& body) {
    const Fields f(body);
    CreateUserInput in;
    in.username = f.req_string("username");
    if (!all_chars(in.username, username_char))
        throw ValidationError("username", "Username can only contain letters, numbers, underscores and dashes");
    check_length(f, "username", in.username, 3, 36);
    if (auto s = f.opt_string("status")) {
        if (!one_of(*s, kUserStatuses)) throw ValidationError("status", "Invalid enum value");
        in.status = *s;
    }
    in.short_uuid = f.opt_string("shortUuid");
    in.trojan_password = f.opt_string("trojanPassword");
    check_length(f, "trojanPassword", in.trojan_password, 8, 32);
    in.vless_uuid = f.opt_string("vlessUuid");
    check_uuid(f, "vlessUuid", in.vless_uuid);
    in.ss_password = f.opt_string("ssPassword");
    check_length(f, "ssPassword", in.ss_password, 8, 32);
    in.traffic_limit_bytes = f.opt_int("trafficLimitBytes");
    check_non_negative(f, "trafficLimitBytes", in.traffic_limit_bytes);
    if (auto s = strategy(f)) in.traffic_limit_strategy = *s;
    in.expire_at = f.req_time("expireAt");
    in.created_at = f.opt_time("createdAt");
    in.last_traffic_reset_at = f.opt_time("lastTrafficResetAt");
    in.description = f.opt_string("description");  // create: string, not nullable
    in.tag = value_of(f.nullable_string("tag"));
    check_tag(f, in.tag);
    in.telegram_id = value_of(f.nullable_int("telegramId"));
    in.email = value_of(f.nullable_string("email"));
    check_email(f, in.email);
    in.hwid_device_limit = f.opt_int("hwidDeviceLimit");
    check_non_negative(f, "hwidDeviceLimit", in.hwid_device_limit);
    in.active_internal_squads = squad_list(f).value_or(std::vector<std::string>{});
    in.uuid = f.opt_string("uuid");
    check_uuid(f, "uuid", in.uuid);
    in.external_squad_uuid = value_of(f.nullable_string("externalSquadUuid"));
    check_uuid(f, "externalSquadUuid", in.external_squad_uuid);
    return in;
}

UpdateUserInput parse_update_user(const rapidjson::Value& body, const std::optional<std::string>& path_uuid, int64_t now_ms) {
    const Fields f(body);
    UpdateUserInput in;
    in.uuid = f.opt_string("uuid");
    check_uuid(f, "uuid", in.uuid);
    if (path_uuid) in.uuid = path_uuid;
    in.username = f.opt_string("username");
    if (!in.uuid && !in.username) throw ValidationError("", "Either uuid or username must be provided");
    in.status = f.opt_string("status");
    if (in.status && *in.status != "ACTIVE" && *in.status != "DISABLED")
        throw ValidationError("status", "You can't change status to LIMITED or EXPIRED. These statuses handled by Remnawave.");
    in.traffic_limit_bytes = f.opt_int("trafficLimitBytes");
    check_non_negative(f, "trafficLimitBytes", in.traffic_limit_bytes);
    in.traffic_limit_strategy = strategy(f);
    in.expire_at = f.opt_time("expireAt");
    if (in.expire_at && *in.expire_at <= now_ms) throw ValidationError("expireAt", "Expiration date cannot be in the past");
    in.description = f.nullable_string("description");
    in.tag = f.nullable_string("tag");
    check_tag(f, value_of(in.tag));
    in.telegram_id = f.nullable_int("telegramId");
    in.email = f.nullable_string("email");
    check_email(f, value_of(in.email));
    in.hwid_device_limit = f.nullable_int("hwidDeviceLimit");
    check_non_negative(f, "hwidDeviceLimit", value_of(in.hwid_device_limit));
    in.active_internal_squads = squad_list(f);
    in.external_squad_uuid = f.nullable_string("externalSquadUuid");
    check_uuid(f, "externalSquadUuid", value_of(in.external_squad_uuid));
    return in;
}

RevokeInput parse_revoke(const rapidjson::Value& body) {
    const Fields f(body);
    RevokeInput in;
    in.revoke_only_passwords = f.opt_bool("revokeOnlyPasswords").value_or(false);
    in.short_uuid = f.opt_string("shortUuid");
    check_length(f, "shortUuid", in.short_uuid, 6, 48);
    return in;
}

void check_squads(const std::vector<std::string>& squad_uuids) {
    for (const auto& s : squad_uuids)
        if (!find_squad(s)) throw squad_not_found();
}

User make_user(const CreateUserInput& in, int64_t id, int64_t now_ms) {
    User u;
    u.uuid = in.uuid.value_or(new_uuid());
    u.id = id;
    u.short_uuid = in.short_uuid.value_or(new_short_uuid());
    u.username = in.username;
    u.status = in.status;
    u.traffic_limit_bytes = in.traffic_limit_bytes.value_or(0);
    u.traffic_limit_strategy = in.traffic_limit_strategy;
    u.expire_at = in.expire_at;
    u.telegram_id = in.telegram_id;
    u.email = in.email;
    u.description = in.description;
    u.tag = in.tag;
    u.hwid_device_limit = in.hwid_device_limit;
    u.external_squad_uuid = in.external_squad_uuid;
    u.trojan_password = in.trojan_password.value_or(new_password());
    u.vless_uuid = in.vless_uuid.value_or(new_uuid());
    u.ss_password = in.ss_password.value_or(new_password());
    u.last_traffic_reset_at = in.last_traffic_reset_at;
    u.created_at = in.created_at.value_or(now_ms);
    u.updated_at = now_ms;
    u.active_internal_squads = in.active_internal_squads;
    u.devices = demo_devices(now_ms);
    return u;
}

void apply_update(User& u, const UpdateUserInput& in, int64_t now_ms) {
    std::optional<std::string> status = in.status;
    if (in.traffic_limit_bytes && u.status == "LIMITED" &&
        (*in.traffic_limit_bytes > u.traffic_limit_bytes || *in.traffic_limit_bytes == 0))
        status = "ACTIVE";
    if (in.expire_at && !in.status && u.status == "EXPIRED" && *in.expire_at > now_ms) status = "ACTIVE";

    if (status) u.status = *status;
    if (in.traffic_limit_bytes) {
        u.traffic_limit_bytes = *in.traffic_limit_bytes;
        u.last_triggered_threshold = 0;
    }
    if (in.traffic_limit_strategy) u.traffic_limit_strategy = *in.traffic_limit_strategy;
    if (in.expire_at) u.expire_at = *in.expire_at;
    if (in.description) u.description = *in.description;
    if (in.tag) u.tag = *in.tag;
    if (in.telegram_id) u.telegram_id = *in.telegram_id;
    if (in.email) u.email = *in.email;
    if (in.hwid_device_limit) u.hwid_device_limit = *in.hwid_device_limit;
    if (in.external_squad_uuid) u.external_squad_uuid = *in.external_squad_uuid;
    if (in.active_internal_squads) u.active_internal_squads = *in.active_internal_squads;
    u.updated_at = now_ms;
}

}  // namespace mock
