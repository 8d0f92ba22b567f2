#include "util/crypto.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

namespace cabinet {
namespace {
Sha256 hmac_raw(const unsigned char* key, size_t key_len, std::string_view data) {
    Sha256 out{};
    size_t out_len = 0;
    // EVP_Q_mac: the one-shot OpenSSL 3 API (the old HMAC() is deprecated).
    if (!EVP_Q_mac(nullptr, "HMAC", nullptr, "SHA256", nullptr, key, key_len,
                   reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), out.size(),
                   &out_len) ||
        out_len != out.size())
        throw std::runtime_error("HMAC-SHA256 failed");
    return out;
}
}  // namespace

Sha256 hmac_sha256(std::string_view key, std::string_view data) {
    return hmac_raw(reinterpret_cast<const unsigned char*>(key.data()), key.size(), data);
}

Sha256 hmac_sha256(const Sha256& key, std::string_view data) { return hmac_raw(key.data(), key.size(), data); }

Sha256 sha256(std::string_view data) {
    Sha256 out{};
    unsigned int len = 0;
    if (!EVP_Digest(data.data(), data.size(), out.data(), &len, EVP_sha256(), nullptr) || len != out.size())
        throw std::runtime_error("SHA-256 failed");
    return out;
}

bool digest_equal(const Sha256& a, const Sha256& b) { return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0; }

}  // namespace cabinet
