// Web-cabinet access tokens, auth/jwt. The first line picks the way in:
//   "raw"     the rest is the bearer token as sent: nearly always stopped by the signature;
//   "signed"  the next line is the header JSON and the rest the claims JSON, signed with
//             HS256 and our secret here, so the checks behind the signature are reached.
// Only ApiError 401 may come out, and an accepted token must satisfy every rule of jwt.hpp.
#include <string>

#include "auth/jwt.hpp"
#include "errors.hpp"
#include "fuzz_input.hpp"
#include "payments/wire.hpp"
#include "util/crypto.hpp"

namespace {

constexpr int64_t kNow = 1700000400;  // the seeds' tokens are valid then
const std::string kSecret = "fuzz-secret-0123456789abcdef0123456789abcdef";

std::string base64url(std::string_view bytes) {
    std::string s = cabinet::payments::base64(bytes);
    while (!s.empty() && s.back() == '=') s.pop_back();
    for (char& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return s;
}

std::string sign_hs256(std::string_view header, std::string_view claims) {
    const std::string input = base64url(header) + "." + base64url(claims);
    const cabinet::Sha256 mac = cabinet::hmac_sha256(std::string_view(kSecret), input);
    return input + "." + base64url({reinterpret_cast<const char*>(mac.data()), mac.size()});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const cabinet::JwtCodec codec(kSecret);
    std::string_view rest = fuzz::as_text(data, size);
    const std::string_view mode = fuzz::take(rest);
    std::string token(rest);
    if (mode == "signed") {
        const std::string_view header = fuzz::take(rest);
        token = sign_hs256(header, rest);
    }
    try {
        const cabinet::AccessClaims c = codec.verify(token, kNow);
        if (c.user_id <= 0) fuzz::fail("accepted a token without a positive subject");
        if (c.expires_at <= kNow) fuzz::fail("accepted an expired token");
        if (mode != "signed" && token.size() > cabinet::JwtCodec::kMaxLength) fuzz::fail("accepted an oversized token");
    } catch (const cabinet::ApiError& e) {
        if (e.status() != 401) fuzz::fail("token refused with a status other than 401");
    }
    return 0;
}
