#pragma once
// The successor of a rotated refresh token, sealed for the grace period (migration 0016).
// Two tabs refreshing with the same token at once: the first rotates it, the second, within
// kRefreshGraceS, gets the same new refresh token back instead of tripping reuse detection
// (which revokes every session of the login). The successor is stored encrypted
// (XSalsa20-Poly1305) under a key derived from the rotated token, which the database keeps
// only as a hash: a database reader cannot open it, the holder of the old token can.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

inline constexpr int64_t kRefreshGraceS = 10;

// Hex text: nonce then ciphertext.
std::string seal_successor(std::string_view rotated_token, std::string_view successor);
// nullopt when `sealed` was not made with this token (or is damaged).
std::optional<std::string> open_successor(std::string_view rotated_token, std::string_view sealed);

}  // namespace cabinet
