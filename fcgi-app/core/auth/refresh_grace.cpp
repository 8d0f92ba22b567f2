#include "auth/refresh_grace.hpp"

#include <sodium.h>

#include <array>
#include <vector>

namespace cabinet {
namespace {

using Key = std::array<unsigned char, crypto_secretbox_KEYBYTES>;

Key key_of(std::string_view token) {
    static constexpr char kContext[] = "cabinet refresh-token grace v1";
    Key k{};
    crypto_generichash(k.data(), k.size(), reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                       reinterpret_cast<const unsigned char*>(kContext), sizeof kContext - 1);
    return k;
}

}  // namespace

std::string seal_successor(std::string_view rotated_token, std::string_view successor) {
    const Key k = key_of(rotated_token);
    std::vector<unsigned char> box(crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES + successor.size());
    unsigned char* nonce = box.data();
    randombytes_buf(nonce, crypto_secretbox_NONCEBYTES);
    crypto_secretbox_easy(nonce + crypto_secretbox_NONCEBYTES, reinterpret_cast<const unsigned char*>(successor.data()),
                          successor.size(), nonce, k.data());
    std::string hex(box.size() * 2 + 1, '\0');
    sodium_bin2hex(hex.data(), hex.size(), box.data(), box.size());
    hex.pop_back();
    return hex;
}

std::optional<std::string> open_successor(std::string_view rotated_token, std::string_view sealed) {
    if (sealed.size() < 2 * (crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES)) return std::nullopt;
    std::vector<unsigned char> box(sealed.size() / 2);
    size_t len = 0;
    if (sodium_hex2bin(box.data(), box.size(), sealed.data(), sealed.size(), nullptr, &len, nullptr) != 0 ||
        len < crypto_secretbox_NONCEBYTES + crypto_secretbox_MACBYTES)
        return std::nullopt;
    const Key k = key_of(rotated_token);
    const unsigned char* nonce = box.data();
    const size_t clen = len - crypto_secretbox_NONCEBYTES;
    std::string out(clen - crypto_secretbox_MACBYTES, '\0');
    if (crypto_secretbox_open_easy(reinterpret_cast<unsigned char*>(out.data()), nonce + crypto_secretbox_NONCEBYTES,
                                   clen, nonce, k.data()) != 0)
        return std::nullopt;
    return out;
}

}  // namespace cabinet
