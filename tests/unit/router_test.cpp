#include <boost/test/unit_test.hpp>

#include "errors.hpp"
#include "http/router.hpp"

using namespace cabinet;

namespace {
void h(Exchange&) {}
void h2(Exchange&) {}

Router make() {
    return Router({{"GET", "/api/cabinet/me", AuthKind::tma, h},
                   {"GET", "/api/cabinet/devices", AuthKind::tma, h},
                   {"DELETE", "/api/cabinet/devices/{hwid}", AuthKind::tma, h2}});
}

int status_of(const Router& r, const char* method, const char* path) {
    try {
        r.match(method, path);
        return 200;
    } catch (const ApiError& e) {
        return e.status();
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(router)

BOOST_AUTO_TEST_CASE(static_and_param_routes) {
    const Router r = make();
    BOOST_TEST(r.match("GET", "/api/cabinet/me").route->handler == &h);
    const auto m = r.match("DELETE", "/api/cabinet/devices/abc%20def");
    BOOST_TEST(m.route->handler == &h2);
    BOOST_TEST(m.params.at(0) == "abc def");
}

BOOST_AUTO_TEST_CASE(unknown_hostile_and_wrong_method) {
    const Router r = make();
    BOOST_TEST(status_of(r, "GET", "/api/cabinet/nope") == 404);
    BOOST_TEST(status_of(r, "POST", "/api/cabinet/me") == 405);
    BOOST_TEST(status_of(r, "GET", "/api/cabinet/../cabinet/me") == 404);
    BOOST_TEST(status_of(r, "GET", "/api/cabinet%2Fme") == 404);
    BOOST_TEST(status_of(r, "DELETE", "/api/cabinet/devices/a%2Fb") == 404);
    BOOST_TEST(status_of(r, "DELETE", "/api/cabinet/devices/%2e%2e") == 404);
    BOOST_TEST(status_of(r, "DELETE", "/api/cabinet/devices/%zz") == 404);
    BOOST_TEST(status_of(r, "DELETE", "/api/cabinet/devices/") == 404);
    BOOST_TEST(status_of(r, "GET", "") == 404);
    try {
        r.match("PUT", "/api/cabinet/me");
    } catch (const ApiError& e) {
        BOOST_TEST(e.headers.at(0).second == "GET");
    }
}

// Found by tests/fuzz/fcgi_request: an escaped spelling of a static path used to miss the
// static table and fall through to a placeholder route at the same depth.
BOOST_AUTO_TEST_CASE(escaped_static_path_is_that_path_not_a_placeholder) {
    const Router r({{"POST", "/api/admin/maintenance/mode", AuthKind::owner, h},
                    {"POST", "/api/admin/maintenance/{action}", AuthKind::owner, h2},
                    {"GET", "/api/cabinet/me", AuthKind::tma, h}});
    BOOST_TEST(r.match("POST", "/api/admin/maintenance/m%6Fde").route->handler == &h);
    BOOST_TEST(r.match("POST", "/api/admin/maintenance/backup").route->handler == &h2);
    BOOST_TEST(r.match("GET", "/api/cabinet/m%65").route->handler == &h);
    BOOST_TEST(status_of(r, "POST", "/api/cabinet/m%65") == 405);
}

BOOST_AUTO_TEST_SUITE_END()
