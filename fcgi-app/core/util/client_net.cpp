#include "util/client_net.hpp"

#include <arpa/inet.h>

#include <cstring>

namespace cabinet {

std::string client_net(std::string_view ip) {
    const std::string text(ip);
    in6_addr a6{};
    if (text.find(':') == std::string::npos || inet_pton(AF_INET6, text.c_str(), &a6) != 1) return text;
    char out[INET6_ADDRSTRLEN] = {};
    if (IN6_IS_ADDR_V4MAPPED(&a6)) {
        in_addr a4{};
        std::memcpy(&a4, a6.s6_addr + 12, 4);
        return inet_ntop(AF_INET, &a4, out, sizeof out) ? std::string(out) : text;
    }
    std::memset(a6.s6_addr + 8, 0, 8);  // the interface half: the subscriber's to choose
    return inet_ntop(AF_INET6, &a6, out, sizeof out) ? std::string(out) + "/64" : text;
}

}  // namespace cabinet
