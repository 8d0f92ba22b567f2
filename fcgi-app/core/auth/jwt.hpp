#pragma once
// Web-cabinet access tokens: JWT HS256 through libjwt. Only HS256 is accepted (alg "none"
// and every other algorithm are refused before the signature is even considered), `exp`
// is required, `type` must be "access".
#include <cstdint>
#include <string>
#include <string_view>

namespace cabinet {

struct AccessClaims {
    int64_t user_id = 0;
    int64_t issued_at = 0;
    int64_t expires_at = 0;
    std::string session_id;  // `sid`: the session's refresh-token family; empty in older tokens
};

class JwtCodec {
public:
    explicit JwtCodec(std::string secret) : secret_(std::move(secret)) {}
    // Throws ApiError(401).
    AccessClaims verify(std::string_view token, int64_t now) const;
    std::string issue(int64_t user_id, int64_t now, int64_t ttl_s, std::string_view session_id = {}) const;

    static constexpr size_t kMaxLength = 4096;

private:
    std::string secret_;
};

}  // namespace cabinet
