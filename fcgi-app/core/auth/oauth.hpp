#pragma once
// OAuth 2.0 login with Google, Yandex and VK ID (issue 7; docs/decisions.md "OAuth login"):
// the authorization URL, the code exchange and the profile, per provider. Only HTTP and
// parsing live here; states, users and links are services/oauth_login's. The client secret
// and the access token never reach a log line or an error text.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "config/settings.hpp"
#include "net/http_client.hpp"
#include "util/enum_text.hpp"

namespace cabinet::oauth {

enum class Provider : uint8_t { google, yandex, vk };
}  // namespace cabinet::oauth

namespace cabinet {
template <>
struct StateTexts<oauth::Provider> {
    static constexpr EnumText<oauth::Provider, 3> table{{"google", "yandex", "vk"}, "OAuth provider"};
};
}  // namespace cabinet

namespace cabinet::oauth {

// "google", "yandex", "vk"; nullopt for anything else.
std::optional<Provider> parse_provider(std::string_view name);
const char* provider_name(Provider p);
// Known and configured (enabled_oauth_providers: id and secret set, web cabinet on).
bool provider_enabled(const Settings& s, Provider p);

// The front end's page the provider sends the browser back to; it POSTs code and state to
// /auth/oauth/callback. The same string goes into the authorize and the token request.
std::string redirect_uri(const Settings& s);

// PKCE (RFC 7636): a 43-character base64url verifier and its S256 challenge.
std::string new_code_verifier();
std::string code_challenge_s256(std::string_view verifier);

// Where the browser goes to sign in. `code_verifier` is used by vk only (PKCE).
std::string authorize_url(const Settings& s, Provider p, const std::string& state, const std::string& code_verifier);

struct Profile {
    std::string subject;  // the provider's stable user id
    std::string email;    // as reported, possibly empty
    bool email_verified = false;
    std::string display_name;
};

// The provider refused the code or could not be reached: a 502 for the client. what() is
// safe to show (no secret, no token).
class ProviderError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct CodeGrant {
    std::string code;
    std::string code_verifier;  // vk
    std::string device_id;      // vk: from the redirect, required by its token endpoint
    std::string state;          // vk echoes it in the token request
};

// Exchanges the code for an access token and reads the user's profile with it.
Profile fetch_profile(HttpClient& http, const Settings& s, Provider p, const CodeGrant& x);

// The user-info answers as each provider shapes them (public for unit tests).
Profile parse_profile(Provider p, std::string_view body);

}  // namespace cabinet::oauth
