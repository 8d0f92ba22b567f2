#pragma once
// Opaque random tokens of the web cabinet (verification links, refresh tokens): handed to
// the client once, stored only as their SHA-256, so a database read yields no live token.
#include <string>
#include <string_view>

namespace cabinet {

// 32 random bytes, base64url without padding (43 characters).
std::string new_opaque_token();
// Lower-case hex SHA-256 of the token, the form stored in the database.
std::string opaque_token_hash(std::string_view token);

}  // namespace cabinet
