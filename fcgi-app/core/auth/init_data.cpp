#include "auth/init_data.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "errors.hpp"
#include "util/client_json.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr int64_t kFutureSkewS = 60;  // clocks of Telegram and ours may differ a little

std::string json_string(const rapidjson::Value& obj, const char* key, size_t max_len) {
    auto it = obj.FindMember(key);
    if (it == obj.MemberEnd() || it->value.IsNull()) return {};
    if (!it->value.IsString()) throw unauthorized(std::string("init data: user.") + key + " is not a string");
    if (it->value.GetStringLength() > max_len) throw unauthorized(std::string("init data: user.") + key + " is too long");
    return {it->value.GetString(), it->value.GetStringLength()};
}

TelegramUser parse_user(const std::string& json) {
    SmallDocument doc;
    std::string dup;
    const JsonFault f = parse_client_json(doc, json, &dup);
    // Signed by Telegram yet unreadable: 401 like any init data we cannot use, never a 500.
    if (f != JsonFault::none && f != JsonFault::malformed) throw unauthorized("init data: user: " + describe(f, dup));
    if (f == JsonFault::malformed || !doc.IsObject()) throw unauthorized("init data: user is not a JSON object");
    TelegramUser u;
    auto id = doc.FindMember("id");
    if (id == doc.MemberEnd() || !id->value.IsInt64() || id->value.GetInt64() <= 0)
        throw unauthorized("init data: user.id is missing or invalid");
    u.id = id->value.GetInt64();
    u.first_name = json_string(doc, "first_name", 256);
    u.last_name = json_string(doc, "last_name", 256);
    u.username = json_string(doc, "username", 64);
    u.language_code = json_string(doc, "language_code", 16);
    return u;
}

}  // namespace

InitDataVerifier::InitDataVerifier(std::string_view bot_token, int64_t max_age_s)
    : secret_(hmac_sha256(std::string_view("WebAppData"), bot_token)), max_age_s_(max_age_s) {}

InitData InitDataVerifier::verify(std::string_view raw, int64_t now) const {
    if (raw.empty()) throw unauthorized("init data is missing");
    if (raw.size() > kMaxLength) throw unauthorized("init data is too long");

    std::vector<std::pair<std::string, std::string>> fields;
    std::optional<std::string> hash;
    for (auto part : split(raw, '&')) {
        const auto eq = part.find('=');
        if (eq == std::string_view::npos) throw unauthorized("init data: malformed field");
        auto key = form_decode(part.substr(0, eq));
        auto value = form_decode(part.substr(eq + 1));
        if (!key || !value || key->empty()) throw unauthorized("init data: malformed field");
        if (*key == "hash") {
            if (hash) throw unauthorized("init data: duplicate field");
            hash = std::move(*value);
            continue;
        }
        fields.emplace_back(std::move(*key), std::move(*value));
    }
    if (!hash) throw unauthorized("init data: hash is missing");
    Sha256 given{};
    if (!hex_decode(*hash, given.data(), given.size())) throw unauthorized("init data: hash is not 64 hex digits");

    std::sort(fields.begin(), fields.end());
    for (size_t i = 1; i < fields.size(); ++i)
        if (fields[i].first == fields[i - 1].first) throw unauthorized("init data: duplicate field");

    std::string check;
    check.reserve(raw.size());
    for (const auto& [k, v] : fields) {
        if (!check.empty()) check.push_back('\n');
        check.append(k).push_back('=');
        check.append(v);
    }
    if (!digest_equal(hmac_sha256(secret_, check), given)) throw unauthorized("init data: signature mismatch");

    // Only signed data is interpreted from here on.
    InitData out;
    bool have_user = false, have_date = false;
    for (const auto& [k, v] : fields) {
        if (k == "auth_date") {
            if (!parse_int64(v, out.auth_date) || out.auth_date <= 0) throw unauthorized("init data: bad auth_date");
            have_date = true;
        } else if (k == "user") {
            out.user = parse_user(v);
            have_user = true;
        } else if (k == "start_param") {
            out.start_param = v.substr(0, 512);
        }
    }
    if (!have_date) throw unauthorized("init data: auth_date is missing");
    if (!have_user) throw unauthorized("init data: user is missing");
    if (out.auth_date > now + kFutureSkewS) throw unauthorized("init data: auth_date is in the future");
    if (now - out.auth_date > max_age_s_) throw unauthorized("init data has expired");
    return out;
}

}  // namespace cabinet
