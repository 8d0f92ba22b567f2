#include "panel/panel_client.hpp"

#include "util/json.hpp"

namespace cabinet {

PanelClient::PanelClient(std::string base_url, std::string token, int64_t connect_timeout_ms, int64_t timeout_ms)
    : base_url_(std::move(base_url)), auth_header_("Authorization: Bearer " + token), http_(connect_timeout_ms, timeout_ms) {
    while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
}

std::string PanelClient::get_response_json(const std::string& path) {
    HttpResponse r;
    try {
        r = http_.send("GET", base_url_ + path, {auth_header_, "Accept: application/json"});
    } catch (const TransportError& e) {
        throw PanelError(e.what());
    }
    if (r.status != 200) throw PanelError(path + " answered " + std::to_string(r.status));
    return std::move(r.body);
}

std::string PanelClient::version() {
    std::string body;
    try {
        body = get_response_json("/api/system/metadata");
    } catch (const PanelError&) {
        body = get_response_json("/api/system/health");
    }
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    if (doc.HasParseError() || !doc.IsObject()) throw PanelError("version: not JSON");
    auto resp = doc.FindMember("response");
    if (resp == doc.MemberEnd() || !resp->value.IsObject()) throw PanelError("version: no response object");
    auto v = resp->value.FindMember("version");
    if (v == resp->value.MemberEnd() || !v->value.IsString()) throw PanelError("version: no version");
    return v->value.GetString();
}

}  // namespace cabinet
