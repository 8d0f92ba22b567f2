#include "payments/wire.hpp"

#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

namespace cabinet::payments {

std::string format_minor(int64_t minor) {
    const bool negative = minor < 0;
    // Via unsigned, so INT64_MIN does not overflow on negation.
    const uint64_t v = negative ? 0 - static_cast<uint64_t>(minor) : static_cast<uint64_t>(minor);
    std::string cents = std::to_string(v % 100);
    if (cents.size() < 2) cents.insert(0, "0");
    return (negative ? "-" : "") + std::to_string(v / 100) + "." + cents;
}

std::optional<int64_t> parse_minor(std::string_view s) {
    const size_t dot = s.find('.');
    const std::string_view whole = s.substr(0, dot);
    const std::string_view frac = dot == std::string_view::npos ? std::string_view{} : s.substr(dot + 1);
    const auto digits = [](std::string_view d) { return std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; }); };
    if (whole.empty() || whole.size() > 15 || !digits(whole) || !digits(frac)) return std::nullopt;
    if (dot != std::string_view::npos && frac.empty()) return std::nullopt;  // "299."
    int64_t units = 0;
    for (char c : whole) units = units * 10 + (c - '0');  // at most 15 digits: no overflow
    int64_t cents = 0;
    for (size_t i = 0; i < 2; ++i) cents = cents * 10 + (i < frac.size() ? frac[i] - '0' : 0);
    return units * 100 + cents;
}

std::string base64(std::string_view data) {
    std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
    out.resize(static_cast<size_t>(n));
    return out;
}

std::string basic_auth_header(std::string_view user, std::string_view password) {
    std::string pair(user);
    pair += ':';
    pair += password;
    return "Authorization: Basic " + base64(pair);
}

HttpResponse call_gateway(HttpClient& http, const CallSlots* slots, const char* provider, const std::string& method,
                          const std::string& url, const std::vector<std::string>& headers, const std::string& body,
                          bool not_found_ok, bool refusals_ok) {
    HttpResponse r;
    try {
        const CallSlots::Slot<GatewayBusy> slot(slots);
        r = http.send(method, url, headers, body);
    } catch (const TransportError& e) {
        throw GatewayError(std::string(provider) + ": " + e.what());
    }
    if (r.status == 404 && not_found_ok) return r;
    if (r.status >= 400 && r.status < 500 && refusals_ok) return r;
    if (r.status < 200 || r.status > 299) {
        // A 4xx means the provider refuses what we sent (credentials, contract): our side.
        if (r.status < 500)
            spdlog::error("{} refused {} {}: {} {}", provider, method, url, r.status, r.body.substr(0, 300));
        throw GatewayError(std::string(provider) + ": " + method + " " + url + " answered " + std::to_string(r.status));
    }
    return r;
}

rapidjson::Document parse_object(const char* provider, const std::string& body) {
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    if (doc.HasParseError() || !doc.IsObject()) throw GatewayError(std::string(provider) + ": answer is not a JSON object");
    return doc;
}

const rapidjson::Value* string_member(const rapidjson::Value& obj, const char* name) {
    if (!obj.IsObject()) return nullptr;
    auto it = obj.FindMember(name);
    return it != obj.MemberEnd() && it->value.IsString() ? &it->value : nullptr;
}

std::string string_or_empty(const rapidjson::Value& obj, const char* name) {
    const auto* v = string_member(obj, name);
    return v ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

HttpClient gateway_http(const Settings& s) { return HttpClient(std::min<int64_t>(3000, s.gateway_timeout_ms), s.gateway_timeout_ms); }

}  // namespace cabinet::payments
