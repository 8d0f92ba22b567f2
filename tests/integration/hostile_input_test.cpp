// Hostile input through nginx (issue 13): broken headers and request lines, oversized and
// malformed bodies, forged or broken init data, invalid UTF-8 and lone surrogates, numbers
// of the wrong kind, repeated keys and path tricks, across auth, purchase, promo, support,
// the webhooks and admin. Each answer must be a refusal (4xx, JSON with a `detail`, nginx's
// own answers included), and afterwards nothing may have changed in the database and the
// pool may have logged no 500.
#include <boost/test/unit_test.hpp>

#include "hostile_support.hpp"
#include "payments/cryptobot.hpp"
#include "raw_http.hpp"

using namespace it;
using namespace std::string_literals;

namespace {

using Texts = std::vector<std::string>;

// A funded buyer whose rows must not move, and the pool's log from here on.
struct Pack {
    int64_t tg = fresh_telegram_id();
    std::string auth = tma_header(tg, "Hostile");
    std::map<std::string, std::string> before;
    PoolLogWatch log;

    Pack() {
        BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {auth}).status, 200);
        set_balance(tg, 1000000);
        before = db_snapshot(tg);
    }
    ~Pack() {
        const auto after = db_snapshot(tg);
        for (const auto& [what, value] : before) BOOST_TEST(after.at(what) == value, what << " changed");
        for (const auto& line : log.server_errors()) BOOST_ERROR("pool logged a server error: " << line);
    }
    std::vector<std::string> with_auth(std::vector<std::string> h = kJsonHeaders) const {
        h.push_back(auth);
        return h;
    }
};

// The POST endpoints that read a JSON body, with the credential each needs.
struct Endpoint {
    std::string path;
    bool authed;
};
const std::vector<Endpoint> kJsonEndpoints = {
    {"/api/cabinet/auth/register", false}, {"/api/cabinet/auth/login", false},
    {"/api/cabinet/auth/refresh", false},  {"/api/cabinet/auth/telegram/poll", false},
    {"/api/cabinet/purchase", true},       {"/api/cabinet/promocode", true},
    {"/api/cabinet/support", true},        {"/api/cabinet/link/email", true},
    {"/api/cabinet/auth/oauth/callback", false},
};

}  // namespace

BOOST_AUTO_TEST_SUITE(hostile_input)

BOOST_AUTO_TEST_CASE(malformed_json_bodies) {
    Pack pack;
    const std::vector<std::string> bodies = {
        "{", "[]", "null", "\"text\"", "42", "{\"a\":}", "{'a':1}", "{\"a\":1} trailing", "{\"a\":NaN}",
        "{\"a\":Infinity}", "\xEF\xBB\xBF{}", "{\"a\":\"\xff\xfe\"}", "{\"a\":\"\xed\xa0\x80\"}",  // BOM, bad bytes
        "{\"a\":\"\xc0\xaf\"}", std::string(30000, '[') + std::string(30000, ']'),
        "{\"text\":\"a\\u0000b\",\"code\":\"a\\u0000b\",\"email\":\"a\\u0000@b.c\",\"password\":\"a\\u0000bcdefgh\"}",
        "{\"n\":1e400}", "{\"n\":-1e400}", "\0{}"s};
    for (const auto& ep : kJsonEndpoints) {
        const auto headers = ep.authed ? pack.with_auth() : kJsonHeaders;
        for (const auto& body : bodies)
            expect_refusal(http("POST", ep.path, headers, body), ep.path + " " + body.substr(0, 40));
    }
}

// RapidJSON decodes "\udc00" into bytes that are not UTF-8, and PostgreSQL refused them: a 500.
BOOST_AUTO_TEST_CASE(lone_surrogates_and_repeated_keys) {
    Pack pack;
    const std::string email = "hostile" + std::to_string(pack.tg) + "@example.test";
    const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
        {"/api/cabinet/support", {R"({"text":"hello \udc00"})", R"({"text":"\ud800"})", R"({"text":"\udfff\ud800"})",
                                  R"({"text":"a","text":"b"})", R"({"te\u0078t":"a","text":"b"})"}},
        {"/api/cabinet/promocode", {R"({"code":"X\udc00Y"})", R"({"code":"AB","code":"CD"})"}},
        {"/api/cabinet/purchase",
         {R"({"plan_id":"standard","days":30,"method":"balance","days":3650})",  // which days is paid for?
          R"({"plan_id":"standard","days":30,"method":"balance","method":"stars"})",
          R"({"plan_id":"\udc00","days":30,"method":"balance"})", R"({"plan_id":"standard","days":30,"method":"\udc00"})"}},
        {"/api/cabinet/link/email", {R"({"email":")" + email + R"(","password":"pass\udc00word"})",
                                     R"({"email":")" + email + R"(","email":"x@example.test","password":"password123"})"}},
    };
    for (const auto& [path, bodies] : cases)
        for (const auto& body : bodies) expect_refusal(http("POST", path, pack.with_auth(), body), path + " " + body);

    for (const auto& body :
         Texts{R"({"email":"a\udc00@example.test","password":"password123"})",
          R"({"email":")" + email + R"(","password":"\udc00\udc00\udc00\udc00\udc00\udc00\udc00\udc00"})",
          R"({"email":")" + email + R"(","password":"password123","password":"other-password"})"}) {
        expect_refusal(http("POST", "/api/cabinet/auth/register", kJsonHeaders, body), "register " + body);
        expect_refusal(http("POST", "/api/cabinet/auth/login", kJsonHeaders, body), "login " + body);
    }
    expect_refusal(http("POST", "/api/cabinet/auth/refresh", kJsonHeaders, R"({"refresh_token":"\udc00"})"), "refresh");
    expect_refusal(http("POST", "/api/cabinet/auth/telegram/poll", kJsonHeaders, R"({"code":"\udc00"})"), "poll");

    // Admin: a maintenance message is stored as text.
    const std::string admin = tma_header(100000001, "Demo");
    for (const auto& body : Texts{R"({"enabled":false,"message":"\udc00"})", R"({"enabled":false,"enabled":true})",
                                   R"({"enabled":"false"})", R"({"enabled":0})"})
        expect_refusal(http("POST", "/api/admin/maintenance/mode", {admin, kJsonContentType}, body), "admin " + body);
}

BOOST_AUTO_TEST_CASE(numbers_where_integers_belong) {
    Pack pack;
    for (const auto& days : Texts{"1e400", "1e20", "-1", "-0", "0", "1.5", "30.0", "\"30\"", "9223372036854775808",
                                   "-9223372036854775809", "true", "null", "[]", "{}", "3651", "0x1E"}) {
        const std::string body = R"({"plan_id":"standard","method":"balance","days":)" + days + "}";
        expect_refusal(http("POST", "/api/cabinet/purchase", pack.with_auth(), body), "days " + days);
    }
    for (const auto& id : Texts{"-1", "0", "1.5", "1e400", "18446744073709551616", "-0", "{}", "[1]"}) {
        const std::string body = R"({"plan_id":)" + id + R"(,"method":"balance","days":30})";
        expect_refusal(http("POST", "/api/cabinet/purchase", pack.with_auth(), body), "plan_id " + id);
    }
}

BOOST_AUTO_TEST_CASE(broken_forged_and_oversized_init_data) {
    Pack pack;
    const std::string good = pack.auth;
    const std::string tampered = good.substr(0, good.size() - 1) + (good.back() == '0' ? "1" : "0");
    std::vector<std::string> bad = {
        "Authorization: tma",
        "Authorization: tma ",
        "Authorization: tma garbage",
        "Authorization: tma " + std::string(7000, 'a'),
        "Authorization: tma hash=" + std::string(64, '0'),
        tampered,                                                              // forged signature
        good + "&user=%7B%7D",                                                 // a second user
        "Authorization: tma a=%zz&hash=" + std::string(64, '0'),
        "Authorization: Bearer " + std::string(3000, 'x'),
        "Authorization: Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",          // alg none
        "Authorization: Bearer a.b.c",
        "Authorization: Basic YTpi",
        tma_header(pack.tg, "Old", "", 1000),                                   // expired
        tma_header(pack.tg, "Future", "", 4102444800),                         // 2100
    };
    // Signed by the bot token, but the user inside is unusable.
    for (const auto& user : Texts{R"({"id":)" + std::to_string(pack.tg) + R"(,"first_name":"\udc00"})",
          R"({"id":)" + std::to_string(fresh_telegram_id()) + R"(,"first_name":"A\ud800"})",
          R"({"id":)" + std::to_string(fresh_telegram_id()) + R"(,"first_name":"A","last_name":"\udfff"})",
          R"({"id":)" + std::to_string(fresh_telegram_id()) + R"(,"id":)" + std::to_string(pack.tg) + R"(,"first_name":"A"})",
          std::string(R"({"id":0,"first_name":"A"})"), std::string(R"({"id":-5,"first_name":"A"})"),
          std::string(R"({"id":1.5,"first_name":"A"})"), std::string(R"({"id":"7","first_name":"A"})"),
          std::string(R"({"id":1e400,"first_name":"A"})"), std::string(R"({"id":99999999999999999999,"first_name":"A"})"),
          std::string("[]"), std::string("not json")})
        bad.push_back(tma_header_raw_user(user));
    for (const auto& h : bad) {
        expect_refusal(http("GET", "/api/cabinet/me", {h}), "me with " + h.substr(0, 80));
        expect_refusal(http("POST", "/api/cabinet/purchase", {h, kJsonContentType},
                            R"({"plan_id":"standard","days":30,"method":"balance"})"),
                       "purchase with " + h.substr(0, 80));
    }
    // Past nginx's header buffer (8 KiB): nginx's own 400, as JSON too.
    expect_refusal(http("GET", "/api/cabinet/me", {"Authorization: tma " + std::string(9000, 'a')}), "huge init data");
}

BOOST_AUTO_TEST_CASE(path_tricks_and_methods) {
    Pack pack;
    const std::vector<std::string> paths = {
        "/api/cabinet/../cabinet/purchase", "/api/cabinet/%2e%2e/cabinet/purchase", "/api/cabinet/purchase%2F",
        "/api/cabinet//purchase", "//api/cabinet/purchase", "/api/cabinet/purchase%00", "/api/cabinet/purchase/.",
        "/api/cabinet/purchase;x=1", "/api/cabinet/purchase/", "/api/cabinet/PURCHASE",
        "/api/v1/payments/%ff", "/api/v1/payments/..%2f..%2fadmin", "/api/v1/payments/yookassa/extra",
        "/api/v1/payments/%00", "/bot//webhook", "/api/admin/../admin/maintenance/mode",
        "/api/admin/maintenance/%ff%fe", "/api/cabinet/devices/%ff%fe", "/api/cabinet/devices/%c0%af",
        "/api/cabinet/link/oauth/%ed%b0%80", "/api/cabinet/" + std::string(6000, 'a'),
        "/api/cabinet/nothing?" + std::string(6000, 'q'), "/api/%zz"};
    for (const auto& p : paths) {
        expect_refusal(http("POST", p, pack.with_auth(), R"({"plan_id":"standard","days":30,"method":"balance"})"), "POST " + p);
        expect_refusal(http("DELETE", p, pack.with_auth()), "DELETE " + p);
    }
    // An escaped unreserved letter is the same path (RFC 3986 6.2.2.2), as nginx's location
    // matching sees it too: one route, not an alias that slips past a location's rules.
    BOOST_TEST(http("GET", "/api/cabinet/m%65", {pack.auth}).status == 200);
    // Longer than nginx's request-line buffer: its 414, as JSON.
    expect_refusal(http("GET", "/api/cabinet/" + std::string(9000, 'a'), {pack.auth}), "9000-byte path");
    expect_refusal(http("GET", "/api/cabinet/me?" + std::string(9000, 'q'), {pack.auth}), "9000-byte query");

    for (const auto& method : Texts{"FOO", "PROPFIND", "PATCH", "PUT", "TRACE", "CONNECT", "get", "G E T"})
        expect_refusal(raw_http(method + " /api/cabinet/purchase HTTP/1.1\r\nHost: localhost\r\n" + pack.auth +
                                "\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"),
                       "method " + method);
    // Query strings that are not UTF-8 or not decodable.
    for (const auto& p : Texts{"/dl?to=%ff", "/dl?to=%zz", "/api/admin/audit?limit=%ff", "/api/admin/audit?limit=1e400",
                                "/api/admin/audit?limit=-1"})
        expect_refusal(http("GET", p, {tma_header(100000001, "Demo")}), "GET " + p);
}

BOOST_AUTO_TEST_CASE(broken_headers_and_framing) {
    Pack pack;
    const std::string post = "POST /api/cabinet/purchase HTTP/1.1\r\nHost: localhost\r\n" + pack.auth + "\r\n";
    const std::string body = R"({"plan_id":"standard","days":30,"method":"balance"})";
    const std::string len = "Content-Length: " + std::to_string(body.size()) + "\r\n";
    const std::vector<std::pair<std::string, std::string>> requests = {
        {"garbage request line", "GARBAGE\r\n\r\n"},
        {"no Host in HTTP/1.1", "GET /api/cabinet/me HTTP/1.1\r\n" + pack.auth + "\r\nConnection: close\r\n\r\n"},
        {"bad Host", "GET /api/cabinet/me HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n"},
        // nginx skips a line that is not a header (and logs it): it must not count as one.
        {"credential without colon", "POST /api/cabinet/purchase HTTP/1.1\r\nHost: localhost\r\nAuthorization tma " +
                                         pack.auth.substr(pack.auth.find("tma ") + 4) + "\r\n" + len +
                                         "Connection: close\r\n\r\n" + body},
        {"NUL in a header", post + "X-A: a\0b\r\n"s + len + "Connection: close\r\n\r\n" + body},
        {"folded header", post + "X-A: a\r\n folded\r\n" + len + "Connection: close\r\n\r\n" + body},
        {"Content-Length junk", post + "Content-Length: abc\r\nConnection: close\r\n\r\n" + body},
        {"Content-Length negative", post + "Content-Length: -5\r\nConnection: close\r\n\r\n" + body},
        {"Content-Length huge", post + "Content-Length: 99999999999999999999\r\nConnection: close\r\n\r\n" + body},
        {"two Content-Lengths", post + len + "Content-Length: 3\r\nConnection: close\r\n\r\n" + body},
        {"Content-Length and chunked",
         post + len + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n" + body},
        {"body over 64 KiB by Content-Length", post + "Content-Length: 70000\r\nConnection: close\r\n\r\n" + body},
        {"idempotency key not UTF-8", post + "Idempotency-Key: \xff\xfe\r\nContent-Type: application/json\r\n" + len +
                                          "Connection: close\r\n\r\n" + body},
        {"idempotency key with a control byte", post + "Idempotency-Key: a\x01z\r\nContent-Type: application/json\r\n" +
                                                    len + "Connection: close\r\n\r\n" + body},
        {"idempotency key too long", post + "Idempotency-Key: " + std::string(300, 'k') +
                                         "\r\nContent-Type: application/json\r\n" + len + "Connection: close\r\n\r\n" + body},
    };
    for (const auto& [what, request] : requests) expect_refusal(raw_http(request), what);
    // Protocol errors keep the statuses RFC 9112 gives them, with a JSON body all the same.
    auto r = raw_http(post + "Transfer-Encoding: gzip\r\nConnection: close\r\n\r\n" + body);
    BOOST_TEST(r.status == 501);
    expect_refusal(r, "unknown transfer coding", {501});
    for (const std::string version : {"HTTP/2.0", "HTTP/9.9"}) {
        r = raw_http("GET /api/cabinet/me " + version + "\r\nHost: localhost\r\n\r\n");
        BOOST_TEST(r.status == 505);
        expect_refusal(r, version, {505});
    }

    // Past nginx's limits: its own 400 (header) and 413 (body), as JSON.
    expect_refusal(http("GET", "/api/cabinet/me", {pack.auth, "Cookie: " + std::string(9000, 'c')}), "9000-byte cookie");
    std::vector<std::string> many = {pack.auth};
    for (int i = 0; i < 300; ++i) many.push_back("X-Pad-" + std::to_string(i) + ": " + std::string(200, 'p'));
    expect_refusal(http("GET", "/api/cabinet/me", many), "60 KiB of headers");
    expect_refusal(http("POST", "/api/cabinet/support", pack.with_auth(), R"({"text":")" + std::string(70000, 'x') + "\"}"),
                   "70 KB body");
    expect_refusal(http("POST", "/bot/webhook", {"Content-Type: application/json"}, std::string(100000, ' ')),
                   "100 KB webhook");
}

BOOST_AUTO_TEST_CASE(webhooks) {
    Pack pack;
    // Telegram's bot webhook: the secret first, then the body.
    const std::string update = R"({"update_id":1,"message":{"message_id":1,"date":1,"chat":{"id":)" +
                               std::to_string(pack.tg) + R"(,"type":"private"},"from":{"id":)" + std::to_string(pack.tg) +
                               R"(,"is_bot":false,"first_name":"H"},"text":"/start"}})";
    expect_refusal(bot_update(update, "wrong-secret"), "bot webhook, wrong secret");
    expect_refusal(bot_update(update, ""), "bot webhook, no secret");
    for (const auto& body : Texts{std::string("{"), std::string("[]"), std::string(R"({"update_id":1,"update_id":2})"),
          R"({"update_id":5,"message":{"message_id":1,"date":1,"chat":{"id":)" + std::to_string(pack.tg) +
              R"(,"type":"private"},"from":{"id":)" + std::to_string(pack.tg) +
              R"(,"is_bot":false,"first_name":"\udc00"},"text":"/start \udc00"}})",
          R"({"update_id":6,"message":{"message_id":1,"date":1,"chat":{"id":1,"type":"private"},"chat":{"id":)" +
              std::to_string(pack.tg) + R"(,"type":"private"},"text":"/start"}})"})
        expect_refusal(bot_update(body), "bot webhook " + body.substr(0, 60));

    // Payment webhooks: unverifiable bodies are refused before anything is believed.
    for (const auto& body : Texts{std::string("{"), std::string(R"({"event":"payment.succeeded","object":{"id":"\udc00"}})"),
                                   std::string(R"({"object":{"id":"2f1a-x"},"object":{"id":"other"}})")})
        expect_refusal(http("POST", "/api/v1/payments/yookassa", kJsonHeaders, body), "yookassa " + body);
    const std::string token = env("CRYPTOBOT_TOKEN");
    for (const auto& body : Texts{std::string(R"({"update_type":"invoice_paid","payload":{"invoice_id":1,"status":"paid","payload":"1","payload":"2"}})"),
          std::string(R"({"update_type":"invoice_paid","payload":{"invoice_id":"\udc00","status":"paid"}})"),
          std::string("{")}) {
        const std::string sig = "Crypto-Pay-Api-Signature: " + cabinet::cryptobot_signature(token, body);
        expect_refusal(http("POST", "/api/v1/payments/cryptobot", {kJsonContentType, sig}, body), "cryptobot " + body);
        expect_refusal(http("POST", "/api/v1/payments/cryptobot", kJsonHeaders, body), "cryptobot unsigned " + body);
    }
    expect_refusal(http("POST", "/api/v1/payments/unknown", kJsonHeaders, "{}"), "unknown gateway");
}

// Not a refusal: a browser's claim that is not UTF-8 is dropped, the sign-in still starts.
BOOST_AUTO_TEST_CASE(user_agent_that_is_not_utf8) {
    PoolLogWatch log;
    const auto r = raw_http("POST /api/cabinet/auth/telegram/start HTTP/1.0\r\nHost: localhost\r\n"
                            "User-Agent: Mozilla \xff\xfe\xed\xb0\x80\r\nContent-Length: 0\r\n\r\n");
    BOOST_TEST(r.status == 200);
    BOOST_TEST(r.json()["code"].IsString());
    for (const auto& line : log.server_errors()) BOOST_ERROR("pool logged a server error: " << line);
}

BOOST_AUTO_TEST_SUITE_END()
