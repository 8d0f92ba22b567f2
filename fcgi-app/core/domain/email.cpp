#include "domain/email.hpp"

#include "util/strings.hpp"

namespace cabinet {

std::optional<std::string> normalize_email(std::string_view raw) {
    // Unicode lowercase, not ASCII only: the users table holds lower(email) (a CHECK), and
    // "Иван@почта.рф" is an address a customer of this shop may well type with a capital.
    const std::string e = to_lower_utf8(trim(raw));
    if (e.size() < 3 || e.size() > 254) return std::nullopt;
    const auto at = e.find('@');
    if (at == std::string::npos || at == 0 || at > 64 || e.find('@', at + 1) != std::string::npos) return std::nullopt;
    const std::string_view domain = std::string_view(e).substr(at + 1);
    const auto dot = domain.find('.');
    if (dot == std::string_view::npos || dot == 0 || domain.back() == '.' || domain.find("..") != std::string_view::npos)
        return std::nullopt;
    for (unsigned char c : e)
        if (c <= 0x20 || c == 0x7f || c == '<' || c == '>' || c == '"' || c == '(' || c == ')' || c == ',' ||
            c == ';' || c == '\\' || c == '[' || c == ']')
            return std::nullopt;
    return e;
}

}  // namespace cabinet
