#pragma once
// The client a rate limit counts: an IPv4 address as it is, an IPv6 address by its /64
// network, as nginx's zones key them (nginx/cabinet_http.conf $cabinet_net). One IPv6
// subscriber gets a whole /64 and may pick a new address for every request: counted per
// address, each request would be a client of its own.
#include <string>
#include <string_view>

namespace cabinet {

// "203.0.113.7" → "203.0.113.7"; "2001:db8:1:2:aaaa::1" → "2001:db8:1:2::/64";
// "::ffff:203.0.113.7" (IPv4 mapped) → "203.0.113.7"; anything else as it came.
std::string client_net(std::string_view ip);

}  // namespace cabinet
