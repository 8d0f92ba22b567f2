#pragma once
// The client a rate limit counts: an IPv4 address as it is, an IPv6 address by its /64
// network, as nginx's zones key them (nginx/cabinet_http.conf $cabinet_net). One IPv6
// subscriber gets a whole /64 and may pick a new address for every request: counted per
// address, each request would be a client of its own.
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cabinet {

// "203.0.113.7" → "203.0.113.7"; "2001:db8:1:2:aaaa::1" → "2001:db8:1:2::/64";
// "::ffff:203.0.113.7" (IPv4 mapped) → "203.0.113.7"; anything else as it came.
std::string client_net(std::string_view ip);

// An address or a network as nginx's `allow` takes it ("203.0.113.7", "185.71.76.0/27",
// "2a02:5180::/32"), parsed once when the settings are read.
struct IpNetwork {
    bool v6 = false;
    std::array<unsigned char, 16> addr{};  // the first 4 bytes for IPv4
    int bits = 0;
};
std::optional<IpNetwork> parse_ip_network(std::string_view text);

// Whether the client address `ip` (REMOTE_ADDR) lies in one of `networks`; an IPv4-mapped
// IPv6 address counts as its IPv4 address. False for anything that is not an address.
bool in_networks(std::string_view ip, const std::vector<IpNetwork>& networks);

}  // namespace cabinet
