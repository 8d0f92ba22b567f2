#include "user_view.hpp"

#include "catalog.hpp"

namespace mock {

std::string subscription_url(const std::string& public_url, const User& u) { return public_url + "/sub/" + u.short_uuid; }

void write_user_fields(JsonWriter& w, const User& u, std::string_view status) {
    put(w, "uuid", u.uuid);
    put_int(w, "id", u.id);
    put(w, "shortUuid", u.short_uuid);
    put(w, "username", u.username);
    put(w, "status", status);
    put_int(w, "trafficLimitBytes", u.traffic_limit_bytes);
    put(w, "trafficLimitStrategy", u.traffic_limit_strategy);
    put_time(w, "expireAt", u.expire_at);
    put_int(w, "telegramId", u.telegram_id);
    put(w, "email", u.email);
    put(w, "description", u.description);
    put(w, "tag", u.tag);
    put_int(w, "hwidDeviceLimit", u.hwid_device_limit);
    put(w, "externalSquadUuid", u.external_squad_uuid);
    put(w, "trojanPassword", u.trojan_password);
    put(w, "vlessUuid", u.vless_uuid);
    put(w, "ssPassword", u.ss_password);
    put_int(w, "lastTriggeredThreshold", u.last_triggered_threshold);
    put_time(w, "subRevokedAt", u.sub_revoked_at);
    put_time(w, "lastTrafficResetAt", u.last_traffic_reset_at);
    put_time(w, "createdAt", u.created_at);
    put_time(w, "updatedAt", u.updated_at);
}

void write_device_fields(JsonWriter& w, const Device& d) {
    put(w, "hwid", d.hwid);
    put(w, "platform", d.platform);
    put(w, "osVersion", d.os_version);
    put(w, "deviceModel", d.device_model);
    put(w, "userAgent", d.user_agent);
    put_time(w, "createdAt", d.created_at);
    put_time(w, "updatedAt", d.updated_at);
}

void write_api_user(JsonWriter& w, const User& u, const std::string& public_url, int64_t now_ms) {
    w.StartObject();
    write_user_fields(w, u, view_status(u, now_ms));
    put(w, "subscriptionUrl", subscription_url(public_url, u));
    cabinet::write_key(w, "activeInternalSquads");
    w.StartArray();
    for (const auto& uuid : u.active_internal_squads) {
        const Squad* s = find_squad(uuid);
        w.StartObject();
        put(w, "uuid", uuid);
        put(w, "name", s ? s->name : std::string_view("unknown"));
        w.EndObject();
    }
    w.EndArray();
    cabinet::write_key(w, "userTraffic");
    w.StartObject();
    put_int(w, "usedTrafficBytes", u.used_traffic_bytes);
    put_int(w, "lifetimeUsedTrafficBytes", u.lifetime_used_traffic_bytes);
    put_time(w, "onlineAt", u.online_at);
    put_time(w, "firstConnectedAt", u.first_connected_at);
    put(w, "lastConnectedNodeUuid", u.last_connected_node_uuid);
    w.EndObject();
    w.EndObject();
}

void write_device_list(JsonWriter& w, const User& u) {
    w.StartObject();
    put_int(w, "total", static_cast<int64_t>(u.devices.size()));
    cabinet::write_key(w, "devices");
    w.StartArray();
    for (const auto& d : u.devices) {
        w.StartObject();
        write_device_fields(w, d);
        put(w, "userUuid", u.uuid);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

}  // namespace mock
