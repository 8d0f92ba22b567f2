#include "auth/jwt.hpp"

#include <jwt.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <memory>

#include "errors.hpp"
#include "util/client_json.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

struct JwtFree {
    void operator()(jwt_t* j) const { jwt_free(j); }
};
using JwtPtr = std::unique_ptr<jwt_t, JwtFree>;

// base64url without padding -> bytes; false on a character outside the alphabet.
bool base64url_decode(std::string_view in, std::string& out) {
    out.clear();
    unsigned buf = 0;
    int bits = 0;
    for (char c : in) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '-') v = 62;
        else if (c == '_') v = 63;
        else return false;
        buf = (buf << 6) | static_cast<unsigned>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(static_cast<char>((buf >> bits) & 0xff));
        }
    }
    return true;
}

// Check the header ourselves first: libjwt would happily decode alg "none".
void require_hs256_header(std::string_view token) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos) throw unauthorized("token is malformed");
    std::string header;
    if (!base64url_decode(token.substr(0, dot), header)) throw unauthorized("token is malformed");
    SmallDocument doc;
    // A repeated "alg" must not let libjwt read another copy than ours.
    if (parse_client_json(doc, header) != JsonFault::none || !doc.IsObject()) throw unauthorized("token is malformed");
    auto alg = doc.FindMember("alg");
    if (alg == doc.MemberEnd() || !alg->value.IsString() || std::string_view(alg->value.GetString()) != "HS256")
        throw unauthorized("token algorithm is not accepted");
}

}  // namespace

AccessClaims JwtCodec::verify(std::string_view token, int64_t now) const {
    if (token.empty() || token.size() > kMaxLength) throw unauthorized("token is malformed");
    if (std::count(token.begin(), token.end(), '.') != 2) throw unauthorized("token is malformed");
    require_hs256_header(token);

    const std::string copy(token);
    jwt_t* raw = nullptr;
    if (jwt_decode(&raw, copy.c_str(), reinterpret_cast<const unsigned char*>(secret_.data()),
                   static_cast<int>(secret_.size())) != 0 || !raw)
        throw unauthorized("token signature is invalid");
    JwtPtr jwt(raw);
    if (jwt_get_alg(jwt.get()) != JWT_ALG_HS256) throw unauthorized("token algorithm is not accepted");

    errno = 0;
    const long exp = jwt_get_grant_int(jwt.get(), "exp");
    if (errno != 0 || exp <= 0) throw unauthorized("token has no expiry");
    if (exp <= now) throw unauthorized("token has expired");
    const char* type = jwt_get_grant(jwt.get(), "type");
    if (!type || std::string_view(type) != "access") throw unauthorized("token is not an access token");

    AccessClaims claims;
    claims.expires_at = exp;
    const char* sub = jwt_get_grant(jwt.get(), "sub");
    if (!sub || !parse_int64(sub, claims.user_id) || claims.user_id <= 0)
        throw unauthorized("token subject is invalid");
    errno = 0;
    claims.issued_at = jwt_get_grant_int(jwt.get(), "iat");
    if (const char* sid = jwt_get_grant(jwt.get(), "sid")) claims.session_id = sid;
    return claims;
}

std::string JwtCodec::issue(int64_t user_id, int64_t now, int64_t ttl_s, std::string_view session_id) const {
    jwt_t* raw = nullptr;
    if (jwt_new(&raw) != 0) throw std::runtime_error("jwt_new failed");
    JwtPtr jwt(raw);
    const std::string sub = std::to_string(user_id);
    jwt_add_grant(jwt.get(), "sub", sub.c_str());
    jwt_add_grant(jwt.get(), "type", "access");
    jwt_add_grant_bool(jwt.get(), "web", 1);
    jwt_add_grant_int(jwt.get(), "iat", now);
    jwt_add_grant_int(jwt.get(), "exp", now + ttl_s);
    if (!session_id.empty()) jwt_add_grant(jwt.get(), "sid", std::string(session_id).c_str());
    jwt_set_alg(jwt.get(), JWT_ALG_HS256, reinterpret_cast<const unsigned char*>(secret_.data()),
                static_cast<int>(secret_.size()));
    char* s = jwt_encode_str(jwt.get());
    if (!s) throw std::runtime_error("jwt_encode_str failed");
    std::string out(s);
    free(s);  // libjwt 1.10 allocates with malloc
    return out;
}

}  // namespace cabinet
