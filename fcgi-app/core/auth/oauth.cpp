#include "auth/oauth.hpp"

#include <sodium.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

#include "auth/init_data_signer.hpp"
#include "util/crypto.hpp"
#include "util/json.hpp"
#include "util/web_tokens.hpp"

namespace cabinet::oauth {
namespace {

struct Endpoints {
    const std::string& client_id;
    const std::string& client_secret;
    const std::string& authorize_url;
    const std::string& token_url;
    const std::string& userinfo_url;
};

Endpoints endpoints(const Settings& s, Provider p) {
    switch (p) {
        case Provider::google:
            return {s.google_client_id, s.google_client_secret, s.google_authorize_url, s.google_token_url, s.google_userinfo_url};
        case Provider::yandex:
            return {s.yandex_client_id, s.yandex_client_secret, s.yandex_authorize_url, s.yandex_token_url, s.yandex_userinfo_url};
        case Provider::vk: break;
    }
    return {s.vk_client_id, s.vk_client_secret, s.vk_authorize_url, s.vk_token_url, s.vk_userinfo_url};
}

const char* scope(Provider p) {
    switch (p) {
        case Provider::google: return "openid email profile";
        case Provider::yandex: return "login:email login:info";
        case Provider::vk: break;
    }
    return "email";
}

std::string form(std::initializer_list<std::pair<const char*, std::string_view>> fields) {
    std::string out;
    for (const auto& [k, v] : fields) {
        if (!out.empty()) out += '&';
        out += k;
        out += '=';
        out += form_encode(v);
    }
    return out;
}

std::string str(const rapidjson::Value& obj, const char* name) {
    if (!obj.IsObject()) return {};
    auto it = obj.FindMember(name);
    if (it == obj.MemberEnd()) return {};
    if (it->value.IsString()) return std::string(it->value.GetString(), it->value.GetStringLength());
    if (it->value.IsInt64()) return std::to_string(it->value.GetInt64());  // VK ids may come as numbers
    return {};
}

rapidjson::Document parse_object(std::string_view body) {
    rapidjson::Document doc;
    doc.Parse<kStrictParse>(body.data(), body.size());
    if (doc.HasParseError() || !doc.IsObject()) doc.SetObject();
    return doc;
}

// Providers answer errors as {error, error_description}; only those two fields are shown
// or logged, never the request (it carries the secret or the token).
[[noreturn]] void refuse(Provider p, const char* step, const HttpResponse& r, const rapidjson::Document& doc) {
    std::string what = std::string(provider_name(p)) + " " + step + " failed: ";
    const std::string err = str(doc, "error");
    if (!err.empty()) {
        what += err;
        const std::string desc = str(doc, "error_description");
        if (!desc.empty()) what += " (" + desc.substr(0, 200) + ")";
    } else {
        what += "HTTP " + std::to_string(r.status);
    }
    spdlog::warn("oauth: {}", what);
    throw ProviderError(what);
}

HttpResponse call(HttpClient& http, Provider p, const char* step, const std::string& method, const std::string& url,
                  const std::vector<std::string>& headers, const std::string& body) {
    try {
        return http.send(method, url, headers, body);
    } catch (const TransportError& e) {
        spdlog::warn("oauth: {} {} unreachable: {}", provider_name(p), step, e.what());
        throw ProviderError(std::string(provider_name(p)) + " " + step + " failed: provider unreachable");
    }
}

// An answer is good when it is 2xx JSON without an "error" member (VK ID reports some
// errors with 200).
rapidjson::Document checked(Provider p, const char* step, const HttpResponse& r) {
    auto doc = parse_object(r.body);
    if (r.status < 200 || r.status > 299 || doc.HasMember("error") || doc.MemberCount() == 0) refuse(p, step, r, doc);
    return doc;
}

std::string exchange_code(HttpClient& http, const Settings& s, Provider p, const CodeGrant& x) {
    const Endpoints e = endpoints(s, p);
    const std::string redirect = redirect_uri(s);
    std::string body;
    if (p == Provider::vk) {
        // VK ID's web flow authenticates the exchange by PKCE, not by the client secret.
        body = form({{"grant_type", "authorization_code"}, {"code", x.code}, {"code_verifier", x.code_verifier},
                     {"client_id", e.client_id}, {"device_id", x.device_id}, {"redirect_uri", redirect},
                     {"state", x.state}});
    } else {
        body = form({{"grant_type", "authorization_code"}, {"code", x.code}, {"client_id", e.client_id},
                     {"client_secret", e.client_secret}, {"redirect_uri", redirect}});
    }
    const auto r = call(http, p, "token exchange", "POST", e.token_url,
                        {"Content-Type: application/x-www-form-urlencoded", "Accept: application/json"}, body);
    const auto doc = checked(p, "token exchange", r);
    std::string token = str(doc, "access_token");
    if (token.empty()) refuse(p, "token exchange", r, doc);
    return token;
}

}  // namespace

std::optional<Provider> parse_provider(std::string_view name) { return parse_state<Provider>(name); }

const char* provider_name(Provider p) { return to_text(p).data(); }  // the table's texts are literals

bool provider_enabled(const Settings& s, Provider p) {
    const auto on = enabled_oauth_providers(s);
    return std::find(on.begin(), on.end(), provider_name(p)) != on.end();
}

std::string redirect_uri(const Settings& s) { return s.web_cabinet_url + "/oauth/callback"; }

std::string new_code_verifier() { return new_opaque_token(); }

std::string code_challenge_s256(std::string_view verifier) {
    const Sha256 d = sha256(verifier);
    char out[sodium_base64_ENCODED_LEN(32, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(out, sizeof out, d.data(), d.size(), sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return out;
}

std::string authorize_url(const Settings& s, Provider p, const std::string& state, const std::string& code_verifier) {
    const Endpoints e = endpoints(s, p);
    std::string q = form({{"response_type", "code"}, {"client_id", e.client_id}, {"redirect_uri", redirect_uri(s)},
                          {"scope", scope(p)}, {"state", state}});
    if (p == Provider::vk)
        q += "&" + form({{"code_challenge", code_challenge_s256(code_verifier)}, {"code_challenge_method", "S256"}});
    return e.authorize_url + (e.authorize_url.find('?') == std::string::npos ? "?" : "&") + q;
}

Profile parse_profile(Provider p, std::string_view body) {
    const auto doc = parse_object(body);
    Profile out;
    switch (p) {
        case Provider::google: {
            out.subject = str(doc, "sub");
            out.email = str(doc, "email");
            const auto it = doc.FindMember("email_verified");
            out.email_verified = it != doc.MemberEnd() &&
                                 ((it->value.IsBool() && it->value.GetBool()) ||
                                  (it->value.IsString() && std::string_view(it->value.GetString()) == "true"));
            out.display_name = str(doc, "name");
            break;
        }
        case Provider::yandex:
            // default_email is an address Yandex has confirmed (decisions.md).
            out.subject = str(doc, "id");
            out.email = str(doc, "default_email");
            out.email_verified = !out.email.empty();
            out.display_name = str(doc, "display_name");
            if (out.display_name.empty()) out.display_name = str(doc, "real_name");
            if (out.display_name.empty()) out.display_name = str(doc, "login");
            break;
        case Provider::vk: {
            // VK ID says nothing about the e-mail being confirmed: never trusted (decisions.md).
            const auto it = doc.FindMember("user");
            if (it == doc.MemberEnd() || !it->value.IsObject()) break;
            const auto& u = it->value;
            out.subject = str(u, "user_id");
            out.email = str(u, "email");
            out.display_name = str(u, "first_name");
            const std::string last = str(u, "last_name");
            if (!last.empty()) out.display_name += (out.display_name.empty() ? "" : " ") + last;
            break;
        }
    }
    return out;
}

Profile fetch_profile(HttpClient& http, const Settings& s, Provider p, const CodeGrant& x) {
    const std::string token = exchange_code(http, s, p, x);
    const Endpoints e = endpoints(s, p);
    HttpResponse r;
    if (p == Provider::vk) {
        r = call(http, p, "user info", "POST", e.userinfo_url,
                 {"Content-Type: application/x-www-form-urlencoded", "Accept: application/json"},
                 form({{"access_token", token}, {"client_id", e.client_id}}));
    } else {
        const char* scheme = p == Provider::yandex ? "OAuth " : "Bearer ";
        r = call(http, p, "user info", "GET", e.userinfo_url,
                 {std::string("Authorization: ") + scheme + token, "Accept: application/json"}, {});
    }
    checked(p, "user info", r);
    Profile out = parse_profile(p, r.body);
    if (out.subject.empty()) throw ProviderError(std::string(provider_name(p)) + " user info has no user id");
    return out;
}

}  // namespace cabinet::oauth
