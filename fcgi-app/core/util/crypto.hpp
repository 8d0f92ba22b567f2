#pragma once
// Thin wrappers over OpenSSL 3 for the MACs the service needs.
#include <array>
#include <string_view>

namespace cabinet {

using Sha256 = std::array<unsigned char, 32>;

Sha256 hmac_sha256(std::string_view key, std::string_view data);
Sha256 hmac_sha256(const Sha256& key, std::string_view data);
Sha256 sha256(std::string_view data);
// Constant-time equality of two digests.
bool digest_equal(const Sha256& a, const Sha256& b);

}  // namespace cabinet
