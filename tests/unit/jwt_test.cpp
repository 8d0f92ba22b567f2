#include <boost/test/unit_test.hpp>

#include "auth/jwt.hpp"
#include "errors.hpp"

using namespace cabinet;

namespace {
const std::string kSecret = "0123456789abcdef0123456789abcdef";

int status_of(const JwtCodec& c, const std::string& token, int64_t now) {
    try {
        c.verify(token, now);
        return 200;
    } catch (const ApiError& e) {
        return e.status();
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(jwt)

BOOST_AUTO_TEST_CASE(round_trip_and_expiry) {
    const JwtCodec c(kSecret);
    const std::string t = c.issue(7, 1000, 900);
    const auto claims = c.verify(t, 1500);
    BOOST_TEST(claims.user_id == 7);
    BOOST_TEST(claims.expires_at == 1900);
    BOOST_TEST(status_of(c, t, 1900) == 401);
}

// The session id names the refresh family, so "sign out everywhere else" can keep the caller's.
BOOST_AUTO_TEST_CASE(a_session_id_round_trips_and_older_tokens_have_none) {
    const JwtCodec c(kSecret);
    BOOST_TEST(c.verify(c.issue(7, 1000, 900, "0b5e7c1e-1f7a-4a53-9d36-8d2f4c5b6a79"), 1001).session_id ==
               "0b5e7c1e-1f7a-4a53-9d36-8d2f4c5b6a79");
    BOOST_TEST(c.verify(c.issue(7, 1000, 900), 1001).session_id.empty());
}

BOOST_AUTO_TEST_CASE(other_key_and_tampering_refused) {
    const JwtCodec c(kSecret), other("ffffffffffffffffffffffffffffffff");
    const std::string t = other.issue(7, 1000, 900);
    BOOST_TEST(status_of(c, t, 1001) == 401);
    std::string mine = c.issue(7, 1000, 900);
    mine[mine.size() - 3] = mine[mine.size() - 3] == 'A' ? 'B' : 'A';
    BOOST_TEST(status_of(c, mine, 1001) == 401);
}

BOOST_AUTO_TEST_CASE(alg_none_and_others_refused) {
    const JwtCodec c(kSecret);
    // {"alg":"none","typ":"JWT"} . {"sub":"7","type":"access","exp":99999999999} .
    const std::string none = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0."
                             "eyJzdWIiOiI3IiwidHlwZSI6ImFjY2VzcyIsImV4cCI6OTk5OTk5OTk5OTl9.";
    BOOST_TEST(status_of(c, none, 1001) == 401);
    // {"alg":"HS512","typ":"JWT"} header with the same payload and a junk signature
    const std::string hs512 = "eyJhbGciOiJIUzUxMiIsInR5cCI6IkpXVCJ9."
                              "eyJzdWIiOiI3IiwidHlwZSI6ImFjY2VzcyIsImV4cCI6OTk5OTk5OTk5OTl9.abc";
    BOOST_TEST(status_of(c, hs512, 1001) == 401);
    BOOST_TEST(status_of(c, "not-a-token", 1001) == 401);
    BOOST_TEST(status_of(c, "a.b.c", 1001) == 401);
    BOOST_TEST(status_of(c, "%%%.$$$.###", 1001) == 401);
    BOOST_TEST(status_of(c, "", 1001) == 401);
}

BOOST_AUTO_TEST_SUITE_END()
