#include "panel/panel_json.hpp"

#include "panel/panel_client.hpp"
#include "util/time.hpp"

namespace cabinet::panel_json {
namespace {

const rapidjson::Value& member(const rapidjson::Value& obj, const char* key) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd()) throw PanelError(std::string("panel answer lacks ") + key);
    return it->value;
}

std::string str(const rapidjson::Value& obj, const char* key) {
    const auto& v = member(obj, key);
    if (!v.IsString()) throw PanelError(std::string("panel field ") + key + " is not a string");
    return {v.GetString(), v.GetStringLength()};
}

std::string str_or_empty(const rapidjson::Value& obj, const char* key) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || !it->value.IsString()) return {};
    return {it->value.GetString(), it->value.GetStringLength()};
}

int64_t num(const rapidjson::Value& obj, const char* key) {
    const auto& v = member(obj, key);
    if (v.IsInt64()) return v.GetInt64();
    if (v.IsNumber()) return static_cast<int64_t>(v.GetDouble());  // JS numbers may come as 1e10
    throw PanelError(std::string("panel field ") + key + " is not a number");
}

std::optional<int64_t> opt_num(const rapidjson::Value& obj, const char* key) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return std::nullopt;
    return num(obj, key);
}

int64_t time_of(const rapidjson::Value& obj, const char* key) {
    const auto t = parse_iso8601(str(obj, key));
    if (!t) throw PanelError(std::string("panel field ") + key + " is not a date");
    return *t;
}

}  // namespace

const rapidjson::Value& response_of(const rapidjson::Document& doc, const std::string& body) {
    if (doc.HasParseError() || !doc.IsObject()) throw PanelError("panel answer is not JSON: " + body.substr(0, 120));
    return member(doc, "response");
}

PanelUser user_from(const rapidjson::Value& v) {
    if (!v.IsObject()) throw PanelError("panel user is not an object");
    PanelUser u{.uuid = str(v, "uuid"), .short_uuid = str(v, "shortUuid"), .username = str(v, "username"),
                .status = str(v, "status"), .expire_at = time_of(v, "expireAt"),
                .traffic_limit_bytes = num(v, "trafficLimitBytes"),
                .telegram_id = opt_num(v, "telegramId"), .hwid_device_limit = opt_num(v, "hwidDeviceLimit"),
                .subscription_url = str_or_empty(v, "subscriptionUrl"), .description = str_or_empty(v, "description")};
    // 2.x nests usage in userTraffic; older answers had it at the top level.
    if (auto t = v.FindMember("userTraffic"); t != v.MemberEnd() && t->value.IsObject())
        u.used_traffic_bytes = num(t->value, "usedTrafficBytes");
    else if (auto flat = opt_num(v, "usedTrafficBytes"))
        u.used_traffic_bytes = *flat;
    return u;
}

std::vector<PanelUser> users_from(const rapidjson::Value& v) {
    if (!v.IsArray()) throw PanelError("panel user list is not an array");
    std::vector<PanelUser> out;
    for (const auto& item : v.GetArray()) out.push_back(user_from(item));
    return out;
}

PanelUserPage user_page_from(const rapidjson::Value& v) {
    if (!v.IsObject()) throw PanelError("panel user page is not an object");
    PanelUserPage page;
    page.users = users_from(member(v, "users"));
    page.total = num(v, "total");
    return page;
}

std::vector<PanelDevice> devices_from(const rapidjson::Value& v) {
    if (!v.IsObject()) throw PanelError("panel device list is not an object");
    const auto& list = member(v, "devices");
    if (!list.IsArray()) throw PanelError("panel devices is not an array");
    std::vector<PanelDevice> out;
    for (const auto& d : list.GetArray()) {
        if (!d.IsObject()) throw PanelError("panel device is not an object");
        out.push_back({.hwid = str(d, "hwid"), .platform = str_or_empty(d, "platform"),
                       .os_version = str_or_empty(d, "osVersion"), .device_model = str_or_empty(d, "deviceModel"),
                       .user_agent = str_or_empty(d, "userAgent"), .created_at = time_of(d, "createdAt")});
    }
    return out;
}

}  // namespace cabinet::panel_json
