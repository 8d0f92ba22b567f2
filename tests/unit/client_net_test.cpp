// The app's own rate limits count clients as nginx does (util/client_net.hpp): IPv4 by
// address, IPv6 by /64, an IPv4-mapped IPv6 address as the IPv4 one.
#include <boost/test/unit_test.hpp>

#include "util/client_net.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(client_nets)

BOOST_AUTO_TEST_CASE(ipv6_clients_count_by_their_64_and_ipv4_by_address) {
    BOOST_TEST(client_net("203.0.113.7") == "203.0.113.7");
    BOOST_TEST(client_net("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64");
    BOOST_TEST(client_net("2001:db8:1:2::1") == client_net("2001:db8:1:2:ffff::9"));  // one subscriber
    BOOST_TEST(client_net("2001:db8:1:3::1") != client_net("2001:db8:1:2::1"));        // the next one
    BOOST_TEST(client_net("::ffff:203.0.113.7") == "203.0.113.7");
    BOOST_TEST(client_net("::1") == "::/64");
    BOOST_TEST(client_net("") == "");
    BOOST_TEST(client_net("not an address") == "not an address");
}

BOOST_AUTO_TEST_SUITE_END()
