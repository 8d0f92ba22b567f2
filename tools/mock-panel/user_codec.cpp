#include "user_codec.hpp"

#include "json_input.hpp"
#include "user_view.hpp"

namespace mock {

void write_user_record(JsonWriter& w, const User& u) {
    w.StartObject();
    write_user_fields(w, u, u.status);
    cabinet::write_key(w, "activeInternalSquads");
    w.StartArray();
    for (const auto& s : u.active_internal_squads) cabinet::write_string(w, s);
    w.EndArray();
    put_int(w, "usedTrafficBytes", u.used_traffic_bytes);
    put_int(w, "lifetimeUsedTrafficBytes", u.lifetime_used_traffic_bytes);
    put_time(w, "onlineAt", u.online_at);
    put_time(w, "firstConnectedAt", u.first_connected_at);
    put(w, "lastConnectedNodeUuid", u.last_connected_node_uuid);
    cabinet::write_key(w, "devices");
    w.StartArray();
    for (const auto& d : u.devices) {
        w.StartObject();
        write_device_fields(w, d);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

namespace {

template <class T>
std::optional<T> flat(Nullable<T> v) {
    return v ? *v : std::nullopt;
}

Device read_device(const rapidjson::Value& v, const std::string& prefix) {
    const Fields f(v, prefix);
    Device d;
    d.hwid = f.req_string("hwid");
    d.platform = flat(f.nullable_string("platform"));
    d.os_version = flat(f.nullable_string("osVersion"));
    d.device_model = flat(f.nullable_string("deviceModel"));
    d.user_agent = flat(f.nullable_string("userAgent"));
    d.created_at = f.req_time("createdAt");
    d.updated_at = f.req_time("updatedAt");
    return d;
}

}  // namespace

User read_user_record(const rapidjson::Value& v, const std::string& prefix) {
    const Fields f(v, prefix);
    User u;
    u.uuid = f.req_string("uuid");
    u.id = f.req_int("id");
    u.short_uuid = f.req_string("shortUuid");
    u.username = f.req_string("username");
    u.status = f.req_string("status");
    if (!one_of(u.status, kUserStatuses)) throw ValidationError(f.path("status"), "unknown status");
    u.traffic_limit_bytes = f.req_int("trafficLimitBytes");
    u.traffic_limit_strategy = f.req_string("trafficLimitStrategy");
    if (!one_of(u.traffic_limit_strategy, kResetStrategies))
        throw ValidationError(f.path("trafficLimitStrategy"), "unknown strategy");
    u.expire_at = f.req_time("expireAt");
    u.telegram_id = flat(f.nullable_int("telegramId"));
    u.email = flat(f.nullable_string("email"));
    u.description = flat(f.nullable_string("description"));
    u.tag = flat(f.nullable_string("tag"));
    u.hwid_device_limit = flat(f.nullable_int("hwidDeviceLimit"));
    u.external_squad_uuid = flat(f.nullable_string("externalSquadUuid"));
    u.trojan_password = f.req_string("trojanPassword");
    u.vless_uuid = f.req_string("vlessUuid");
    u.ss_password = f.req_string("ssPassword");
    u.last_triggered_threshold = f.opt_int("lastTriggeredThreshold").value_or(0);
    u.sub_revoked_at = flat(f.nullable_time("subRevokedAt"));
    u.last_traffic_reset_at = flat(f.nullable_time("lastTrafficResetAt"));
    u.created_at = f.req_time("createdAt");
    u.updated_at = f.req_time("updatedAt");
    u.active_internal_squads = f.opt_string_array("activeInternalSquads").value_or(std::vector<std::string>{});
    u.used_traffic_bytes = f.opt_int("usedTrafficBytes").value_or(0);
    u.lifetime_used_traffic_bytes = f.opt_int("lifetimeUsedTrafficBytes").value_or(0);
    u.online_at = flat(f.nullable_time("onlineAt"));
    u.first_connected_at = flat(f.nullable_time("firstConnectedAt"));
    u.last_connected_node_uuid = flat(f.nullable_string("lastConnectedNodeUuid"));
    if (const auto* devices = f.get("devices")) {
        if (!devices->IsArray()) throw ValidationError(f.path("devices"), "Expected array");
        for (rapidjson::SizeType i = 0; i < devices->Size(); ++i)
            u.devices.push_back(read_device((*devices)[i], f.path("devices.") + std::to_string(i) + "."));
    }
    return u;
}

}  // namespace mock
