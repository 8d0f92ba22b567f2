// SPEC "Authentication" through nginx: every 401/403 case, and that none writes a row.
#include <boost/test/unit_test.hpp>

#include "auth/init_data_signer.hpp"
#include "auth/jwt.hpp"
#include "support.hpp"
#include "util/crypto.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

using namespace it;

namespace {

long me_status(const std::string& auth_header) { return http("GET", "/api/cabinet/me", {auth_header}).status; }

// Init data correctly signed with the stack's token over exactly these fields.
std::string signed_raw(const std::vector<std::pair<std::string, std::string>>& fields) {
    auto sorted = fields;
    std::sort(sorted.begin(), sorted.end());
    std::string check, raw;
    for (const auto& [k, v] : sorted) {
        if (!check.empty()) check += "\n";
        check += k + "=" + v;
        raw += k + "=" + cabinet::form_encode(v) + "&";
    }
    const auto secret = cabinet::hmac_sha256(std::string_view("WebAppData"), env("BOT_TOKEN"));
    const auto h = cabinet::hmac_sha256(secret, check);
    return raw + "hash=" + cabinet::hex_encode(h.data(), h.size());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(authentication)

BOOST_AUTO_TEST_CASE(every_bad_credential_is_401_json_and_writes_nothing) {
    const int64_t tg = fresh_telegram_id();
    const std::string now = std::to_string(cabinet::unix_now());
    const std::string good = tma_header(tg).substr(std::string("Authorization: tma ").size());
    const std::string user = "{\"id\":" + std::to_string(tg) + ",\"first_name\":\"X\"}";
    const auto users_before = count("SELECT count(*) FROM users");
    const auto events_before = count("SELECT count(*) FROM events");

    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {"no header", {}},
        {"empty tma", {"Authorization: tma "}},
        {"unknown scheme", {"Authorization: Basic dXNlcjpwYXNz"}},
        {"forged hash", {"Authorization: tma " + good.substr(0, good.size() - 4) + "beef"}},
        {"missing hash", {"Authorization: tma " + good.substr(0, good.find("&hash="))}},
        {"non-hex hash", {"Authorization: tma " + good.substr(0, good.find("&hash=")) + "&hash=" + std::string(64, 'x')}},
        {"duplicate key", {"Authorization: tma auth_date=1&" + good}},
        {"stale", {tma_header(tg, "Test", "", cabinet::unix_now() - 2 * 86400)}},
        {"future", {tma_header(tg, "Test", "", cabinet::unix_now() + 3600)}},
        {"huge value", {"Authorization: tma " + good + "&x=" + std::string(7000, 'a')}},
        {"user not json", {"Authorization: tma " + signed_raw({{"auth_date", now}, {"user", "{nope"}})}},
        {"user invalid utf-8", {"Authorization: tma " + signed_raw({{"auth_date", now}, {"user", "{\"id\":" + std::to_string(tg) + ",\"first_name\":\"\xc3\x28\"}"}})}},
        {"user without id", {"Authorization: tma " + signed_raw({{"auth_date", now}, {"user", "{\"first_name\":\"X\"}"}})}},
        {"no auth_date", {"Authorization: tma " + signed_raw({{"user", user}})}},
        {"jwt garbage", {"Authorization: Bearer not.a.jwt"}},
        {"jwt bad base64", {"Authorization: Bearer %%%.@@@.!!!"}},
    };
    for (const auto& [name, headers] : cases) {
        BOOST_TEST_CONTEXT(name) {
            const auto r = http("GET", "/api/cabinet/me", headers);
            BOOST_TEST(r.status == 401);
            BOOST_TEST(r.json()["detail"].IsString());
        }
    }
    // Headers beyond nginx's buffers are refused by nginx itself, still as JSON.
    const auto too_big = http("GET", "/api/cabinet/me", {"Authorization: tma " + good + "&x=" + std::string(20000, 'a')});
    BOOST_TEST((too_big.status == 400 || too_big.status == 401));
    BOOST_TEST(too_big.json()["detail"].IsString());

    BOOST_TEST(count("SELECT count(*) FROM users") == users_before);
    BOOST_TEST(count("SELECT count(*) FROM events") == events_before);
}

BOOST_AUTO_TEST_CASE(blocked_user_gets_403_with_both_credentials) {
    const int64_t tg = fresh_telegram_id();
    BOOST_TEST(me_status(tma_header(tg)) == 200);
    exec("UPDATE users SET is_blocked = true WHERE telegram_id = " + std::to_string(tg));
    const auto r = http("GET", "/api/cabinet/me", {tma_header(tg)});
    BOOST_TEST(r.status == 403);
    BOOST_TEST(std::string(r.json()["detail"].GetString()) == "user is blocked");
    const int64_t id = count("SELECT id FROM users WHERE telegram_id = " + std::to_string(tg));
    const cabinet::JwtCodec jwt(env("JWT_SECRET"));
    BOOST_TEST(me_status("Authorization: Bearer " + jwt.issue(id, cabinet::unix_now(), 900)) == 403);
}

BOOST_AUTO_TEST_CASE(jwt_resolves_the_same_user_and_rejects_bad_tokens) {
    const int64_t tg = fresh_telegram_id();
    const auto first = http("GET", "/api/cabinet/me", {tma_header(tg, "Jay")});
    BOOST_REQUIRE(first.status == 200);
    const int64_t id = first.json()["user"]["id"].GetInt64();
    const cabinet::JwtCodec jwt(env("JWT_SECRET"));
    const auto by_jwt = http("GET", "/api/cabinet/me", {"Authorization: Bearer " + jwt.issue(id, cabinet::unix_now(), 900)});
    BOOST_TEST(by_jwt.status == 200);
    BOOST_TEST(by_jwt.json()["user"]["id"].GetInt64() == id);

    BOOST_TEST(me_status("Authorization: Bearer " + jwt.issue(id, cabinet::unix_now() - 1000, 900)) == 401);  // expired
    const cabinet::JwtCodec other(std::string(40, 'z'));
    BOOST_TEST(me_status("Authorization: Bearer " + other.issue(id, cabinet::unix_now(), 900)) == 401);  // wrong key
    // alg "none" with a valid-looking payload
    BOOST_TEST(me_status("Authorization: Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0."
                         "eyJzdWIiOiIxIiwidHlwZSI6ImFjY2VzcyIsImV4cCI6OTk5OTk5OTk5OTl9.") == 401);
    BOOST_TEST(me_status("Authorization: Bearer " + jwt.issue(999999999, cabinet::unix_now(), 900)) == 401);  // no user
}

// Credentials never reach the logs, not even from a failed request.
BOOST_AUTO_TEST_CASE(logs_hold_no_credentials) {
    const std::string marker = "SECRETMARK" + std::to_string(fresh_telegram_id());
    const std::string forged = tma_header(fresh_telegram_id(), marker).substr(0, 60) + marker + "&hash=" + std::string(64, '0');
    BOOST_TEST(http("GET", "/api/cabinet/me", {forged}).status == 401);
    BOOST_TEST(http("GET", "/api/cabinet/me", {"Authorization: Bearer " + marker + ".x.y"}).status == 401);
    BOOST_TEST(http("GET", "/api/cabinet/me?" + marker, {tma_header(fresh_telegram_id(), marker)}).status == 200);
    const std::string logs = env("STACK_DIR") + "/log/";
    const std::string grep = "grep -rl -e '" + marker + "' -e '" + env("BOT_TOKEN") + "' -e 'hash=' " + logs + "fcgi-*.log";
    BOOST_TEST(std::system((grep + " >/dev/null").c_str()) != 0);  // grep exits 1: nothing found
}

BOOST_AUTO_TEST_SUITE_END()
