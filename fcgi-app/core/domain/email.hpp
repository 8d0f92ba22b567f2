#pragma once
// E-mail addresses of web accounts: one canonical form (trimmed, lower-cased), so that
// "Ann@Example.com" and "ann@example.com" are one account. Pure, no I/O.
#include <optional>
#include <string>
#include <string_view>

namespace cabinet {

// The canonical address, or nullopt when it is not a plausible address: 3..254 bytes,
// one '@', a 1..64 byte local part, a dotted domain, no spaces, controls, quotes or angle
// brackets (so it is also safe in a mail header).
std::optional<std::string> normalize_email(std::string_view raw);

}  // namespace cabinet
