// Web cabinet sessions as they end (issue 7, issue 13): signing out elsewhere, an ended
// session's access token, a refresh racing a sign-out, the longest a sign-in lasts, two tabs
// refreshing at once. Same suite as web_auth_test.cpp (registration, login, verification).
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>
#include <vector>

#include "auth/jwt.hpp"
#include "support.hpp"
#include "util/time.hpp"
#include "util/web_tokens.hpp"
#include "web_auth_support.hpp"

using namespace it;
using namespace it::web_session;

BOOST_AUTO_TEST_SUITE(web_auth)

// "Sign out everywhere else": every other session of the account ends, the caller's goes on,
// also after it refreshed (its new access token names the same session).
BOOST_AUTO_TEST_CASE(signing_out_everywhere_else_keeps_this_session) {
    const std::string email = fresh_email("others");
    const auto first = register_and_verify(email);
    check_session(first, email);
    const auto laptop = post("login", creds(email, kPassword));
    const auto phone = post("login", creds(email, kPassword));
    check_session(laptop, email);
    check_session(phone, email);
    const auto bearer = [](const HttpResult& s) { return "Authorization: Bearer " + std::string(s.json()["access_token"].GetString()); };
    const auto end_others = [](const std::string& auth) {
        return http("POST", "/api/cabinet/auth/logout-others", {auth, "Content-Type: application/json"}, "{}");
    };

    BOOST_TEST(end_others("").status == 401);
    // A token from before session ids names none: 401 (the page refreshes and asks again),
    // not "every session", its own included.
    const cabinet::JwtCodec jwt(env("JWT_SECRET"));
    const int64_t user_id = laptop.json()["user"]["id"].GetInt64();
    BOOST_TEST(end_others("Authorization: Bearer " + jwt.issue(user_id, cabinet::unix_now(), 900)).status == 401);
    const auto ended = end_others(bearer(laptop));
    BOOST_REQUIRE_MESSAGE(ended.status == 200, ended.body);
    BOOST_TEST(ended.json()["ok"].GetBool());
    BOOST_TEST(ended.json()["ended"].GetInt64() == 2);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(first))).status == 401);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(phone))).status == 401);
    const auto renewed = post("refresh", field("refresh_token", refresh_of(laptop)));
    check_session(renewed, email);
    const auto again = end_others(bearer(renewed));
    BOOST_REQUIRE_MESSAGE(again.status == 200, again.body);
    BOOST_TEST(again.json()["ended"].GetInt64() == 0);
    check_session(post("refresh", field("refresh_token", refresh_of(renewed))), email);
}

// An ended session's access token is refused at once, in every pool process, not when it
// expires up to 15 minutes later: a thief whose session the owner ended has no quarter of
// an hour left to link their own Google account or change the e-mail. Each check is asked
// several times, so that both pool processes answer it, each having held the account (and
// its "no session ended") in memory before.
BOOST_AUTO_TEST_CASE(an_ended_sessions_access_token_is_refused_at_once) {
    const std::string email = fresh_email("ended");
    const auto first = register_and_verify(email);
    const auto laptop = post("login", creds(email, kPassword));
    const auto phone = post("login", creds(email, kPassword));
    check_session(first, email);
    check_session(laptop, email);
    check_session(phone, email);
    const auto bearer = [](const HttpResult& s) { return "Authorization: Bearer " + std::string(s.json()["access_token"].GetString()); };
    // The statuses of `times` requests of /me with the session's access token.
    const auto me_statuses = [&](const HttpResult& s, int times = 8) {
        std::vector<int> statuses;
        for (int i = 0; i < times; ++i) statuses.push_back(http("GET", "/api/cabinet/me", {bearer(s)}).status);
        return statuses;
    };
    const std::vector<int> ok(8, 200), refused(8, 401);
    for (const auto* s : {&first, &laptop, &phone}) BOOST_TEST((me_statuses(*s) == ok));

    const auto ended = http("POST", "/api/cabinet/auth/logout-others", {bearer(laptop), "Content-Type: application/json"}, "{}");
    BOOST_REQUIRE_MESSAGE(ended.status == 200, ended.body);
    BOOST_TEST(ended.json()["ended"].GetInt64() == 2);
    BOOST_TEST((me_statuses(phone) == refused));
    BOOST_TEST((me_statuses(first) == refused));
    BOOST_TEST(detail(http("GET", "/api/cabinet/me", {bearer(phone)})) == "this session has ended; please sign in again");
    BOOST_TEST((me_statuses(laptop) == ok));  // the caller's own goes on

    // Signing out ends the access token with the refresh token.
    BOOST_REQUIRE_EQUAL(post("logout", field("refresh_token", refresh_of(laptop))).status, 200);
    BOOST_TEST((me_statuses(laptop) == refused));

    // A session ended outside the pool (the worker, another host, psql) is refused as soon
    // as the pool's listeners have its notification.
    const auto tablet = post("login", creds(email, kPassword));
    check_session(tablet, email);
    BOOST_TEST((me_statuses(tablet) == ok));
    exec("UPDATE refresh_tokens SET revoked_at = now() WHERE revoked_at IS NULL AND token_hash = '" +
         cabinet::opaque_token_hash(refresh_of(tablet)) + "'");
    BOOST_TEST((me_statuses(tablet) == refused));
    // A new sign-in is a new session, untouched by the ended ones.
    BOOST_TEST((me_statuses(post("login", creds(email, kPassword))) == ok));
}

// A refresh under way while the account signs out elsewhere: its new token (made after the
// sign-out began, while the sign-out waited for the old token's lock) must not live on.
// The test plays the refresh in SQL, holding the old token's lock until it has made the
// successor.
BOOST_AUTO_TEST_CASE(a_refresh_under_way_does_not_outlive_signing_out_elsewhere) {
    const std::string email = fresh_email("race");
    const auto mine = register_and_verify(email);
    const auto other = post("login", creds(email, kPassword));
    check_session(mine, email);
    check_session(other, email);
    const std::string successor = "racing-successor-" + std::to_string(fresh_telegram_id());
    pqxx::connection conn(env("DATABASE_URL"));
    pqxx::work refresh(conn);
    const std::string old_hash = cabinet::opaque_token_hash(refresh_of(other));
    refresh.exec_params("SELECT 1 FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE", old_hash);
    refresh.exec_params(
        "INSERT INTO refresh_tokens (token_hash, family_id, user_id, expires_at, origin, family_started_at)"
        " SELECT $2, family_id, user_id, now() + interval '1 hour', origin, family_started_at FROM refresh_tokens"
        " WHERE token_hash = $1",
        old_hash, cabinet::opaque_token_hash(successor));
    refresh.exec_params("UPDATE refresh_tokens SET rotated_at = now() WHERE token_hash = $1", old_hash);
    HttpResult ended;
    std::thread sign_out([&] {
        ended = http("POST", "/api/cabinet/auth/logout-others",
                     {"Authorization: Bearer " + std::string(mine.json()["access_token"].GetString()),
                      "Content-Type: application/json"}, "{}");
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(700));  // waiting for the old token's lock
    refresh.commit();
    sign_out.join();
    BOOST_REQUIRE_MESSAGE(ended.status == 200, ended.body);
    BOOST_TEST(post("refresh", field("refresh_token", successor)).status == 401);
    check_session(post("refresh", field("refresh_token", refresh_of(mine))), email);
}

// Refreshing renews a token, but a sign-in lasts WEB_SESSION_MAX_AGE_S (30 days) at most:
// a stolen session cannot be kept alive for ever.
BOOST_AUTO_TEST_CASE(a_session_lasts_thirty_days_at_most) {
    const std::string email = fresh_email("maxage");
    const auto s = register_and_verify(email);
    check_session(s, email);
    const std::string family = "(SELECT family_id FROM refresh_tokens WHERE token_hash = '" +
                               cabinet::opaque_token_hash(refresh_of(s)) + "')";
    exec("UPDATE refresh_tokens SET family_started_at = now() - interval '29 days 23 hours' WHERE family_id = " + family);
    const auto late = post("refresh", field("refresh_token", refresh_of(s)));
    check_session(late, email);
    // The new token ends with the session, in an hour, not in REFRESH_TOKEN_TTL_S (7 days).
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE token_hash = '" + cabinet::opaque_token_hash(refresh_of(late)) +
                     "' AND expires_at <= family_started_at + interval '30 days' AND expires_at > now() + interval '50 minutes'") == 1);
    exec("UPDATE refresh_tokens SET family_started_at = now() - interval '30 days 1 minute' WHERE family_id = " + family);
    const auto ended = post("refresh", field("refresh_token", refresh_of(late)));
    BOOST_TEST(ended.status == 401);
    BOOST_TEST(detail(ended) == "refresh token is invalid or expired");
}

// Two tabs refresh with the same token at once (issue 13): both stay signed in, with the
// same new refresh token, and the login is not revoked.
BOOST_AUTO_TEST_CASE(two_tabs_refreshing_at_once_get_the_same_pair) {
    const std::string email = fresh_email("tabs");
    const std::string r1 = refresh_of(register_and_verify(email));
    std::vector<HttpResult> results(4);
    std::vector<std::thread> tabs;
    for (auto& r : results) tabs.emplace_back([&] { r = post("refresh", field("refresh_token", r1)); });
    for (auto& t : tabs) t.join();
    for (const auto& r : results) check_session(r, email);
    const std::string r2 = refresh_of(results[0]);
    for (const auto& r : results) BOOST_TEST(refresh_of(r) == r2);
    BOOST_TEST(r2 != r1);
    check_session(post("refresh", field("refresh_token", r2)), email);  // the family is alive
}

BOOST_AUTO_TEST_SUITE_END()
