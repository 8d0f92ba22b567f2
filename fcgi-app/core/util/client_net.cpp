#include "util/client_net.hpp"

#include <arpa/inet.h>

#include <cstring>

#include "util/strings.hpp"

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

namespace {

// `text` as an address of either family; IPv4-mapped IPv6 addresses become IPv4.
std::optional<IpNetwork> parse_address(const std::string& text) {
    IpNetwork a;
    if (inet_pton(AF_INET, text.c_str(), a.addr.data()) == 1) {
        a.bits = 32;
        return a;
    }
    in6_addr a6{};
    if (inet_pton(AF_INET6, text.c_str(), &a6) != 1) return std::nullopt;
    if (IN6_IS_ADDR_V4MAPPED(&a6)) {
        std::memcpy(a.addr.data(), a6.s6_addr + 12, 4);
        a.bits = 32;
        return a;
    }
    a.v6 = true;
    std::memcpy(a.addr.data(), a6.s6_addr, 16);
    a.bits = 128;
    return a;
}

}  // namespace

std::optional<IpNetwork> parse_ip_network(std::string_view text) {
    const std::string t(trim(text));
    const auto slash = t.find('/');
    auto net = parse_address(t.substr(0, slash));
    if (!net) return std::nullopt;
    if (slash != std::string::npos) {
        int64_t bits = -1;
        if (!parse_int64(t.substr(slash + 1), bits) || bits < 0 || bits > net->bits) return std::nullopt;
        net->bits = static_cast<int>(bits);
    }
    return net;
}

bool in_networks(std::string_view ip, const std::vector<IpNetwork>& networks) {
    const auto a = parse_address(std::string(ip));
    if (!a) return false;
    for (const auto& n : networks) {
        if (n.v6 != a->v6) continue;
        const int whole = n.bits / 8, rest = n.bits % 8;
        if (std::memcmp(n.addr.data(), a->addr.data(), whole) != 0) continue;
        const unsigned char mask = static_cast<unsigned char>(0xFF00 >> rest);
        if (rest == 0 || (n.addr[whole] & mask) == (a->addr[whole] & mask)) return true;
    }
    return false;
}

}  // namespace cabinet
