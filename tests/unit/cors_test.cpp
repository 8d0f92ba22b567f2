// CORS (app/dispatch.hpp apply_cors): an origin named in WEB__CORS_ORIGINS is echoed with
// Allow-Credentials; "*" admits any site, but as "*" and never with credentials (issue 49);
// an origin not admitted gets no CORS headers at all.
#include <boost/test/unit_test.hpp>

#include <map>

#include "app/dispatch.hpp"

using namespace cabinet;

namespace {

std::map<std::string, std::string> cors_headers_for(const std::vector<std::string>& origins, const std::string& origin) {
    Settings s;
    s.cors_origins = origins;
    Request req;
    req.origin = origin;
    Response resp;
    apply_cors(s, req, resp);
    std::map<std::string, std::string> out;
    for (const auto& [k, v] : resp.headers) out[k] = v;
    return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cors)

BOOST_AUTO_TEST_CASE(a_named_origin_may_send_credentials_and_any_site_may_not) {
    auto named = cors_headers_for({"https://shop.example", "*"}, "https://shop.example");
    BOOST_TEST(named["Access-Control-Allow-Origin"] == "https://shop.example");
    BOOST_TEST(named["Access-Control-Allow-Credentials"] == "true");

    auto any = cors_headers_for({"https://shop.example", "*"}, "https://evil.example");
    BOOST_TEST(any["Access-Control-Allow-Origin"] == "*");
    BOOST_TEST(any.count("Access-Control-Allow-Credentials") == 0u);

    auto star_only = cors_headers_for({"*"}, "https://shop.example");
    BOOST_TEST(star_only["Access-Control-Allow-Origin"] == "*");
    BOOST_TEST(star_only.count("Access-Control-Allow-Credentials") == 0u);

    BOOST_TEST(cors_headers_for({"https://shop.example"}, "https://evil.example").empty());
    BOOST_TEST(cors_headers_for({"*"}, "").empty());  // no Origin: not a cross-site request
    BOOST_TEST((cors_grant(Settings{}, "https://shop.example") == CorsGrant::none));
}

BOOST_AUTO_TEST_SUITE_END()
