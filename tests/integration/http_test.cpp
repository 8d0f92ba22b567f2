// The HTTP surface: 404/405/413, hostile paths, CORS, request ids.
#include <boost/test/unit_test.hpp>

#include "support.hpp"

using namespace it;

BOOST_AUTO_TEST_SUITE(http_surface)

BOOST_AUTO_TEST_CASE(unknown_path_wrong_method_and_big_body) {
    auto r = http("GET", "/api/cabinet/does-not-exist");
    BOOST_TEST(r.status == 404);
    BOOST_TEST(std::string(r.json()["detail"].GetString()) == "not found");

    r = http("DELETE", "/api/cabinet/me");
    BOOST_TEST(r.status == 405);
    BOOST_TEST(r.headers["allow"] == "GET");
    BOOST_TEST(r.json()["detail"].IsString());

    r = http("POST", "/api/cabinet/me", {"Content-Type: application/json"}, std::string(200 * 1024, 'x'));
    BOOST_TEST(r.status == 413);
    BOOST_TEST(r.json()["detail"].IsString());
}

BOOST_AUTO_TEST_CASE(hostile_paths_do_not_reach_handlers) {
    for (const char* p : {"/api/cabinet/../cabinet/me", "/api/cabinet%2Fme", "/api/cabinet/%2e%2e/me",
                          "/api/cabinet/me%00", "/api/cabinet/me/", "/api/cabinet//me", "/api/%zz"}) {
        BOOST_TEST_CONTEXT(p) {
            const auto r = http("GET", p, {tma_header(100000001, "Demo")});
            BOOST_TEST((r.status == 400 || r.status == 404));
            BOOST_TEST(r.json()["detail"].IsString());
        }
    }
}

BOOST_AUTO_TEST_CASE(cors_for_configured_origins_only) {
    const std::string allowed = "Origin: http://127.0.0.1:" + env("HTTP_PORT");
    auto r = http("OPTIONS", "/api/cabinet/me",
                  {allowed, "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: authorization"});
    BOOST_TEST(r.status == 204);
    BOOST_TEST(r.headers["access-control-allow-origin"] == "http://127.0.0.1:" + env("HTTP_PORT"));
    BOOST_TEST(r.headers["access-control-allow-methods"].find("GET") != std::string::npos);
    BOOST_TEST(r.headers["access-control-allow-headers"].find("Authorization") != std::string::npos);

    r = http("GET", "/api/cabinet/me", {allowed});  // even a 401 carries CORS, so the client can read it
    BOOST_TEST(r.status == 401);
    BOOST_TEST(r.headers["access-control-allow-origin"] == "http://127.0.0.1:" + env("HTTP_PORT"));

    r = http("OPTIONS", "/api/cabinet/me", {"Origin: https://evil.example", "Access-Control-Request-Method: GET"});
    BOOST_TEST(r.headers.count("access-control-allow-origin") == 0u);
    r = http("GET", "/api/cabinet/config", {"Origin: https://evil.example"});
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.headers.count("access-control-allow-origin") == 0u);
}

BOOST_AUTO_TEST_CASE(every_response_has_a_request_id) {
    auto a = http("GET", "/api/cabinet/config");
    auto b = http("GET", "/api/cabinet/nope");
    BOOST_TEST(a.headers["x-request-id"].size() >= 16u);
    BOOST_TEST(b.headers["x-request-id"].size() >= 16u);
    BOOST_TEST(a.headers["x-request-id"] != b.headers["x-request-id"]);
}

// The landing the worker rendered for the demo shop (tools/stack renders it after seeding).
BOOST_AUTO_TEST_CASE(landing_page_at_root) {
    const auto r = http("GET", "/");
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.headers.at("cache-control") == "no-cache");
    BOOST_TEST(r.body.find("<meta property=\"og:title\"") != std::string::npos);
    BOOST_TEST(r.body.find("__RELEASE__") == std::string::npos);  // nginx wrote the release id in
}

BOOST_AUTO_TEST_SUITE_END()
