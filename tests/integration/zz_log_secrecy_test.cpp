// No password, token, code, secret or init data ever reaches a log (issue 7). Named zz_ so
// it runs last: besides the secrets it uses itself, it checks the logs of the suite's whole
// run (pool, worker, nginx, PostgreSQL, Redis, mock panel) for the stack's own secrets. The
// fakes' log is not ours and is skipped. The browser tests run on a stack of their own,
// whose logs `tools/stack test` checks for its secrets the same way once they are done.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "support.hpp"
#include "util/strings.hpp"

using namespace it;
namespace fs = std::filesystem;

namespace {

std::string all_logs() {
    std::string out;
    for (const auto& e : fs::directory_iterator(env("STACK_DIR") + "/log")) {
        if (!e.is_regular_file() || e.path().filename().string().rfind("fakes", 0) == 0) continue;
        std::ifstream in(e.path(), std::ios::binary);
        std::stringstream ss;
        ss << in.rdbuf();
        out += ss.str();
    }
    return out;
}

// The value of `key=` in URL-encoded init data.
std::string init_data_field(const std::string& init_data, const std::string& key) {
    for (auto part : cabinet::split(init_data, '&'))
        if (cabinet::starts_with(part, key + "=")) return std::string(part.substr(key.size() + 1));
    return {};
}

std::string json_field(const HttpResult& r, const char* name) {
    const auto d = r.json();
    return d.IsObject() && d.HasMember(name) && d[name].IsString() ? d[name].GetString() : "";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(log_secrecy)

BOOST_AUTO_TEST_CASE(no_secret_reaches_a_log) {
    std::vector<std::pair<std::string, std::string>> secrets;  // what, value
    for (const char* name : {"BOT_TOKEN", "JWT_SECRET", "BOT_WEBHOOK_SECRET", "BACKUP_ENCRYPTION_PASSWORD",
                             "YOOKASSA_SECRET_KEY", "CRYPTOBOT_TOKEN", "SMTP_PASSWORD", "GOOGLE_CLIENT_SECRET",
                             "YANDEX_CLIENT_SECRET", "VK_CLIENT_SECRET", "PANEL__TOKEN"}) {
        const char* v = std::getenv(name);
        if (v && std::string(v).size() >= 8) secrets.emplace_back(name, v);
    }

    // Init data of a mini-app request (its hash is what a thief would need).
    const std::string tma = tma_header(fresh_telegram_id(), "Secret", "ref_nothing");
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma}).status == 200);
    const std::string init_data = tma.substr(std::string("Authorization: tma ").size());
    secrets.emplace_back("init data hash", init_data_field(init_data, "hash"));
    secrets.emplace_back("init data", init_data);

    // A web account: password, verification token from the mail, access and refresh tokens.
    const std::string email = "secret" + std::to_string(fresh_telegram_id()) + "@example.test";
    const std::string password = "Pa55-" + std::to_string(fresh_telegram_id()) + "-never-logged";
    const std::vector<std::string> json = {"Content-Type: application/json"};
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/auth/register", json,
                             R"({"email":")" + email + R"(","password":")" + password + R"(","language":"en"})")
                            .status,
                        200);
    const std::string token = mailed_verification_token(email);
    secrets.emplace_back("password", password);
    secrets.emplace_back("verification token", token);
    // The mail's link opened as a page (by the owner's browser, or a mail scanner first).
    BOOST_TEST(http("GET", "/cabinet/verify?token=" + token).status == 200);
    const auto session = http("POST", "/api/cabinet/auth/verify", json, R"({"token":")" + token + R"("})");
    BOOST_REQUIRE_EQUAL(session.status, 200);
    secrets.emplace_back("access token", json_field(session, "access_token"));
    secrets.emplace_back("refresh token", json_field(session, "refresh_token"));
    const auto refreshed = http("POST", "/api/cabinet/auth/refresh", json,
                                R"({"refresh_token":")" + json_field(session, "refresh_token") + R"("})");
    BOOST_REQUIRE_EQUAL(refreshed.status, 200);
    secrets.emplace_back("rotated refresh token", json_field(refreshed, "refresh_token"));
    const std::string wrong = "Wr0ng-" + std::to_string(fresh_telegram_id()) + "-guess";
    BOOST_TEST(http("POST", "/api/cabinet/auth/login", json, R"({"email":")" + email + R"(","password":")" + wrong + R"("})")
                   .status == 401);
    secrets.emplace_back("wrong password", wrong);
    // A webhook call with a wrong secret is refused; its secret is not logged either.
    const std::string forged = "forged-" + std::to_string(fresh_telegram_id());
    BOOST_TEST(bot_update(R"({"update_id":1})", forged).status == 403);
    secrets.emplace_back("forged webhook secret", forged);

    // Telegram web login: the one-time code travels in the bot deep link and the poll body.
    const auto start = http("POST", "/api/cabinet/auth/telegram/start", json, "{}");
    BOOST_REQUIRE_EQUAL(start.status, 200);
    const std::string code = json_field(start, "code");
    const int64_t tg = fresh_telegram_id();
    BOOST_TEST(bot_update(R"({"update_id":7,"message":{"message_id":9,"date":1,"chat":{"id":)" + std::to_string(tg) +
                          R"(,"type":"private"},"from":{"id":)" + std::to_string(tg) +
                          R"(,"is_bot":false,"first_name":"S"},"text":"/start weblogin_)" + code + "\"}}")
                   .status == 200);
    // The bot asks first; the Confirm button's data carries the code too.
    BOOST_TEST(bot_update(R"({"update_id":8,"callback_query":{"id":"cbs1","from":{"id":)" + std::to_string(tg) +
                          R"(,"is_bot":false,"first_name":"S"},"chat_instance":"1","data":"wl+)" + code +
                          R"(","message":{"message_id":3,"date":1,"chat":{"id":)" + std::to_string(tg) +
                          R"(,"type":"private"}}}})")
                   .status == 200);
    // The poll comes from the browser that started it, with its binding cookie.
    const std::string set_cookie = start.headers.count("set-cookie") ? start.headers.at("set-cookie") : std::string();
    std::vector<std::string> browser = json;
    browser.push_back("Cookie: " + set_cookie.substr(0, set_cookie.find(';')));
    const auto polled = http("POST", "/api/cabinet/auth/telegram/poll", browser, R"({"code":")" + code + R"("})");
    BOOST_TEST(polled.status == 200);
    secrets.emplace_back("telegram login code", code);
    secrets.emplace_back("browser binding cookie", set_cookie.substr(set_cookie.find('=') + 1, 43));
    secrets.emplace_back("telegram login access token", json_field(polled, "access_token"));
    // OAuth: the state, and a code the provider (fake) refuses.
    const auto authorize = http("GET", "/api/cabinet/auth/oauth/google/authorize");
    if (authorize.status == 200) {
        const std::string state = json_field(authorize, "state");
        const std::string oauth_code = "oauthcode" + std::to_string(fresh_telegram_id());
        http("POST", "/api/cabinet/auth/oauth/callback", json,
             R"({"provider":"google","code":")" + oauth_code + R"(","state":")" + state + R"("})");
        secrets.emplace_back("oauth state", state);
        secrets.emplace_back("oauth code", oauth_code);
        // The provider sends the browser back to this page with both in its query.
        BOOST_TEST(http("GET", "/cabinet/oauth/callback?code=" + oauth_code + "&state=" + state).status == 200);
    }

    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // nginx flushes its access log every second
    const std::string logs = all_logs();
    BOOST_TEST_REQUIRE(logs.size() > 1000u);  // the run's logs are there
    for (const auto& [what, value] : secrets) {
        BOOST_TEST_REQUIRE(!value.empty(), what);
        BOOST_TEST(logs.find(value) == std::string::npos, what << " appears in a log");
    }
}

BOOST_AUTO_TEST_SUITE_END()
