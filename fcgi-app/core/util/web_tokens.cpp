#include "util/web_tokens.hpp"

#include <sodium.h>

#include "util/crypto.hpp"

namespace cabinet {

std::string new_opaque_token() {
    unsigned char bytes[32];
    randombytes_buf(bytes, sizeof bytes);
    char out[sodium_base64_ENCODED_LEN(sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
    sodium_bin2base64(out, sizeof out, bytes, sizeof bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
    return out;
}

std::string opaque_token_hash(std::string_view token) {
    const Sha256 digest = sha256(token);
    char hex[2 * 32 + 1];
    sodium_bin2hex(hex, sizeof hex, digest.data(), digest.size());
    return hex;
}

}  // namespace cabinet
