#include "auth/init_data_signer.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {

std::string form_encode(std::string_view s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    out.reserve(s.size() * 3);
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '*') out.push_back(static_cast<char>(c));
        else if (c == ' ') out.push_back('+');
        else {
            out.push_back('%');
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 15]);
        }
    }
    return out;
}

std::string sign_init_data(const std::string& bot_token, const TelegramUser& user, int64_t auth_date,
                           const std::string& start_param, const std::string& query_id) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject u(w);
        u.put("id", user.id).put("first_name", user.first_name);
        if (!user.last_name.empty()) u.put("last_name", user.last_name);
        if (!user.username.empty()) u.put("username", user.username);
        if (!user.language_code.empty()) u.put("language_code", user.language_code);
    }

    std::vector<std::pair<std::string, std::string>> fields = {
        {"auth_date", std::to_string(auth_date)},
        {"user", buf.GetString()},
    };
    if (!start_param.empty()) fields.emplace_back("start_param", start_param);
    if (!query_id.empty()) fields.emplace_back("query_id", query_id);
    return sign_init_data_fields(bot_token, std::move(fields));
}

std::string sign_init_data_fields(const std::string& bot_token, std::vector<std::pair<std::string, std::string>> fields) {
    std::sort(fields.begin(), fields.end());
    std::string check;
    for (const auto& [k, v] : fields) {
        if (!check.empty()) check.push_back('\n');
        check += k + "=" + v;
    }
    const Sha256 secret = hmac_sha256(std::string_view("WebAppData"), bot_token);
    const Sha256 hash = hmac_sha256(secret, check);
    std::string out;
    for (const auto& [k, v] : fields) out += form_encode(k) + "=" + form_encode(v) + "&";
    out += "hash=" + hex_encode(hash.data(), hash.size());
    return out;
}

}  // namespace cabinet
