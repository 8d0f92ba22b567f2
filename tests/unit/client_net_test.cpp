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

// The providers' allow-lists (YOOKASSA_WEBHOOK_FROM): YooKassa's published networks.
BOOST_AUTO_TEST_CASE(allow_lists_hold_the_networks_they_name_and_nothing_else) {
    std::vector<IpNetwork> yookassa;
    for (const char* n : {"185.71.76.0/27", "77.75.156.11", "2a02:5180::/32"}) {
        const auto net = parse_ip_network(n);
        BOOST_TEST_REQUIRE(net.has_value(), n);
        yookassa.push_back(*net);
    }
    BOOST_TEST(in_networks("185.71.76.0", yookassa));
    BOOST_TEST(in_networks("185.71.76.31", yookassa));
    BOOST_TEST(!in_networks("185.71.76.32", yookassa));  // past the /27
    BOOST_TEST(in_networks("77.75.156.11", yookassa));
    BOOST_TEST(!in_networks("77.75.156.12", yookassa));  // a single address is a /32
    BOOST_TEST(in_networks("::ffff:185.71.76.5", yookassa));  // as nginx may pass an IPv4 client
    BOOST_TEST(in_networks("2a02:5180:1::7", yookassa));
    BOOST_TEST(!in_networks("2a02:5181::7", yookassa));
    BOOST_TEST(!in_networks("127.0.0.1", yookassa));
    BOOST_TEST(!in_networks("", yookassa));
    BOOST_TEST(!in_networks("185.71.76.1 ", yookassa));
    BOOST_TEST(!in_networks("127.0.0.1", {}));
    // An odd prefix length cuts inside a byte.
    BOOST_TEST(in_networks("10.0.0.129", {*parse_ip_network("10.0.0.128/25")}));
    BOOST_TEST(!in_networks("10.0.0.127", {*parse_ip_network("10.0.0.128/25")}));
    BOOST_TEST(in_networks("203.0.113.9", {*parse_ip_network("0.0.0.0/0")}));
    for (const char* bad : {"", "10.0.0.0/33", "2a02::/129", "10.0.0.0/", "10.0.0/8", "example.com", "10.0.0.0/-1"})
        BOOST_TEST(!parse_ip_network(bad).has_value(), bad);
}

BOOST_AUTO_TEST_SUITE_END()
