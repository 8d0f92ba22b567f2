#include "util/crypto.hpp"

#include <openssl/crypto.h>
#include <sodium.h>

namespace cabinet {
namespace {
// libsodium rather than OpenSSL 3's EVP_Q_mac: that one looks the algorithms up by name on
// every call (a lock and a property search), which was a tenth of GET /me's time in the
// pool (docs/profiles/me.txt). libsodium's HMAC takes a key of any length, no set-up.
Sha256 hmac_raw(const unsigned char* key, size_t key_len, std::string_view data) {
    Sha256 out{};
    crypto_auth_hmacsha256_state state;
    crypto_auth_hmacsha256_init(&state, key, key_len);
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(data.data()), data.size());
    crypto_auth_hmacsha256_final(&state, out.data());
    return out;
}
}  // namespace

Sha256 hmac_sha256(std::string_view key, std::string_view data) {
    return hmac_raw(reinterpret_cast<const unsigned char*>(key.data()), key.size(), data);
}

Sha256 hmac_sha256(const Sha256& key, std::string_view data) { return hmac_raw(key.data(), key.size(), data); }

Sha256 sha256(std::string_view data) {
    Sha256 out{};
    crypto_hash_sha256(out.data(), reinterpret_cast<const unsigned char*>(data.data()), data.size());
    return out;
}

bool digest_equal(const Sha256& a, const Sha256& b) { return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0; }

}  // namespace cabinet
