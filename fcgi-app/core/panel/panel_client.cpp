#include "panel/panel_client.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "panel/panel_json.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

// Panel ids go into URL paths: accept only what a UUID can contain.
const std::string& checked_uuid(const std::string& uuid) {
    const bool ok = uuid.size() == 36 && uuid.find_first_not_of("0123456789abcdefABCDEF-") == std::string::npos;
    if (!ok) throw PanelError("not a panel uuid: " + uuid.substr(0, 40));
    return uuid;
}

// Usernames go into URL paths too; the panel allows only these characters in one.
const std::string& checked_username(const std::string& username) {
    const bool ok = !username.empty() && username.size() <= 36 &&
                    username.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") ==
                        std::string::npos;
    if (!ok) throw PanelError("not a panel username: " + username.substr(0, 40));
    return username;
}

std::vector<int> version_numbers(const std::string& v) {
    std::vector<int> out;
    std::string_view s(v);
    if (!s.empty() && (s.front() == 'v' || s.front() == 'V')) s.remove_prefix(1);
    s = s.substr(0, s.find_first_of("-+ "));
    for (auto part : split(s, '.')) {
        int64_t n = 0;
        if (!parse_int64(part, n) || n < 0) return {};
        out.push_back(static_cast<int>(n));
    }
    return out;
}

void put_state(JsonObject& o, const PanelUserState& s) {
    o.put("status", s.enabled ? "ACTIVE" : "DISABLED").put("trafficLimitBytes", s.traffic_limit_bytes);
    if (s.traffic_strategy) o.put("trafficLimitStrategy", *s.traffic_strategy);
    o.put("expireAt", iso8601_utc(s.expire_at)).put("hwidDeviceLimit", s.device_limit);
    if (!s.description.empty()) o.put("description", s.description);
}

// The one user of a panel answer's body ({"response": user}).
PanelUser user_in(const std::string& body) {
    SmallDocument doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    return panel_json::user_from(panel_json::response_of(doc, body));
}

}  // namespace

bool version_at_least(const std::string& version, const std::string& minimum) {
    const auto have = version_numbers(version), need = version_numbers(minimum);
    if (have.empty()) return false;
    for (size_t i = 0; i < need.size(); ++i) {
        const int h = i < have.size() ? have[i] : 0;
        if (h != need[i]) return h > need[i];
    }
    return true;
}

PanelClient::PanelClient(std::string base_url, std::string token, int64_t connect_timeout_ms, int64_t timeout_ms,
                         const CallSlots* slots)
    : base_url_(std::move(base_url)),
      auth_header_("Authorization: Bearer " + token),
      http_(connect_timeout_ms, timeout_ms),
      slots_(slots) {
    while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
}

std::optional<std::string> PanelClient::call(const std::string& method, const std::string& path, const std::string& body,
                                             bool not_found_ok) {
    HttpResponse r;
    try {
        const CallSlots::Slot<PanelBusy> slot(slots_);
        counters_.calls.add();
        const auto started = std::chrono::steady_clock::now();
        try {
            r = http_.send(method, base_url_ + path,
                           {auth_header_, "Accept: application/json", "Content-Type: application/json"}, body);
        } catch (const TransportError&) {
            counters_.errors.add();
            throw;
        }
        counters_.latency.observe(static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - started).count()));
        if ((r.status < 200 || r.status > 299) && !(r.status == 404 && not_found_ok)) counters_.errors.add();
    } catch (const PanelBusy&) {
        busy_.add();
        throw;
    } catch (const TransportError& e) {
        throw PanelError(e.what());
    }
    if (r.status == 404 && not_found_ok) return std::nullopt;
    if (r.status < 200 || r.status > 299) {
        // A 4xx means we sent something the panel refuses: our bug or a contract change.
        if (r.status < 500) spdlog::error("panel refused {} {}: {} {}", method, path, r.status, r.body.substr(0, 300));
        throw PanelRefusal(r.status, method + " " + path + " answered " + std::to_string(r.status));
    }
    if (method != "GET") ++writes_acknowledged_;
    return std::move(r.body);
}

std::string PanelClient::version() {
    auto body = call("GET", "/api/system/metadata", "", true);
    if (!body) body = call("GET", "/api/system/health", "");  // older panels and SPEC's spelling
    SmallDocument doc;
    doc.Parse<kStrictParse>(body->data(), body->size());
    const auto& resp = panel_json::response_of(doc, *body);
    auto v = resp.FindMember("version");
    if (!resp.IsObject() || v == resp.MemberEnd() || !v->value.IsString()) throw PanelError("panel version is missing");
    return v->value.GetString();
}

PanelUser PanelClient::create_user(const std::string& username, std::optional<int64_t> telegram_id,
                                   const PanelUserState& state) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("username", username);
        put_state(o, state);
        if (telegram_id) o.put("telegramId", *telegram_id);
    }
    const auto body = call("POST", "/api/users", buf.GetString());
    return user_in(*body);
}

std::optional<PanelUser> PanelClient::get_user(const std::string& uuid) {
    const auto body = call("GET", "/api/users/" + checked_uuid(uuid), "", true);
    if (!body) return std::nullopt;
    return user_in(*body);
}

std::vector<PanelUser> PanelClient::users_by_telegram_id(int64_t telegram_id) {
    const auto body = call("GET", "/api/users/by-telegram-id/" + std::to_string(telegram_id), "", true);
    if (!body) return {};  // some panel versions answer 404 for "none"
    SmallDocument doc;
    doc.Parse<kStrictParse>(body->data(), body->size());
    return panel_json::users_from(panel_json::response_of(doc, *body));
}

PanelUserPage PanelClient::list_users(int64_t start, int64_t size) {
    if (start < 0 || size < 1 || size > kMaxPanelPageSize) throw PanelError("panel page out of range");
    const auto body = call("GET", "/api/users?start=" + std::to_string(start) + "&size=" + std::to_string(size), "");
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body->data(), body->size());
    return panel_json::user_page_from(panel_json::response_of(doc, *body));
}

std::optional<PanelUser> PanelClient::user_by_username(const std::string& username) {
    const auto body = call("GET", "/api/users/by-username/" + checked_username(username), "", true);
    if (!body) return std::nullopt;
    return user_in(*body);
}

std::optional<PanelUser> PanelClient::update_user(const std::string& uuid, const PanelUserState& state) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    put_state(JsonObject(w).put("uuid", checked_uuid(uuid)), state);
    return patch(uuid, buf.GetString());
}

std::optional<PanelUser> PanelClient::set_telegram_id(const std::string& uuid, int64_t telegram_id) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    JsonObject(w).put("uuid", checked_uuid(uuid)).put("telegramId", telegram_id);
    return patch(uuid, buf.GetString());
}

std::optional<PanelUser> PanelClient::disable_user(const std::string& uuid, const std::string& description) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    JsonObject(w).put("uuid", checked_uuid(uuid)).put("status", "DISABLED").put("description", description);
    return patch(uuid, buf.GetString());
}

std::optional<PanelUser> PanelClient::patch(const std::string& uuid, const std::string& json) {
    std::optional<std::string> body;
    try {
        body = call("PATCH", "/api/users", json, true);
    } catch (const PanelRefusal& e) {
        // Panels of the 2.x line before the contract's USER_NOT_FOUND answered an update of
        // a user they do not have with 500 "Update user error" (A039): ask whether it is
        // there before calling the panel broken. Only on that failure, so no cost otherwise.
        if (e.panel_status() < 500 || get_user(uuid)) throw;
    }
    if (!body) return std::nullopt;
    return user_in(*body);
}

PanelUser PanelClient::user_action(const std::string& uuid, const char* action, const std::string& body_json) {
    const auto body = call("POST", "/api/users/" + checked_uuid(uuid) + "/actions/" + action, body_json);
    return user_in(*body);
}

PanelUser PanelClient::enable_user(const std::string& uuid) { return user_action(uuid, "enable"); }
PanelUser PanelClient::disable_user(const std::string& uuid) { return user_action(uuid, "disable"); }
PanelUser PanelClient::reset_traffic(const std::string& uuid) { return user_action(uuid, "reset-traffic"); }
PanelUser PanelClient::revoke_subscription(const std::string& uuid) { return user_action(uuid, "revoke"); }

void PanelClient::drop_connections(const std::string& uuid) {
    const std::string body = R"({"dropBy":{"by":"userUuids","userUuids":[")" + checked_uuid(uuid) +
                             R"("]},"targetNodes":{"target":"allNodes"}})";
    call("POST", "/api/ip-control/drop-connections", body);
}

void PanelClient::delete_user(const std::string& uuid) { call("DELETE", "/api/users/" + checked_uuid(uuid), "", true); }

std::vector<PanelDevice> PanelClient::devices(const std::string& uuid) {
    const auto body = call("GET", "/api/hwid/devices/" + checked_uuid(uuid), "");
    SmallDocument doc;
    doc.Parse<kStrictParse>(body->data(), body->size());
    return panel_json::devices_from(panel_json::response_of(doc, *body));
}

void PanelClient::delete_device(const std::string& uuid, const std::string& hwid) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    JsonObject(w).put("userUuid", checked_uuid(uuid)).put("hwid", hwid);
    call("POST", "/api/hwid/devices/delete", buf.GetString());
}

}  // namespace cabinet
