#include "ids.hpp"

#include "util/strings.hpp"

namespace mock {

std::string new_uuid() {
    std::string h = cabinet::random_hex(16);
    h[12] = '4';                                          // version 4
    h[16] = "89ab"[static_cast<unsigned char>(h[16]) % 4];  // RFC 4122 variant
    return h.substr(0, 8) + '-' + h.substr(8, 4) + '-' + h.substr(12, 4) + '-' + h.substr(16, 4) + '-' + h.substr(20);
}

std::string new_short_uuid() { return cabinet::random_hex(8); }

std::string new_password() { return cabinet::random_hex(12); }

bool is_uuid(std::string_view s) {
    if (s.size() != 36) return false;
    for (size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return false;
        } else if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
            return false;
        }
    }
    return true;
}

}  // namespace mock
