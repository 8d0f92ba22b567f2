// OAuth login and linking (issue 7; SPEC-GAPS "Auth and sessions", "Cabinet shapes")
// through nginx, with the providers faked by tests/fakes/oauth.mjs: the fake's authorize
// page takes the person from the test-only `fake_user` parameter and redirects with a code.
#include <boost/test/unit_test.hpp>

#include <cctype>
#include <map>

#include "auth/init_data_signer.hpp"
#include "http/query.hpp"
#include "support.hpp"

using namespace it;

namespace {

const char* const kProviders[] = {"google", "yandex", "vk"};

std::string text_of(const rapidjson::Value& v, const char* name) {
    return v.HasMember(name) && v[name].IsString() ? v[name].GetString() : "";
}

struct Person {
    std::string sub;
    std::string email;
    bool email_verified = false;
    std::string name = "Test Person";
    std::string json() const {
        return R"({"sub":")" + sub + R"(","email":")" + email + R"(","email_verified":)" +
               (email_verified ? "true" : "false") + R"(,"name":")" + name + R"("})";
    }
};
Person fresh_person(const std::string& email = {}, bool verified = false) {
    return Person{std::to_string(fresh_telegram_id()), email, verified};
}
std::string fresh_oauth_email(const std::string& tag) { return "oa" + std::to_string(fresh_telegram_id()) + "." + tag + "@example.test"; }

struct Started {
    std::string url;
    std::string state;
    std::string cookie;  // "name=value" of the browser binding the answer set
    std::vector<std::string> headers;  // the credential it was started with (link mode)
};
Started authorize(const std::string& provider, const std::vector<std::string>& headers = {}) {
    const auto r = http("GET", "/api/cabinet/auth/oauth/" + provider + "/authorize", headers);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const auto d = r.json();
    const std::string set_cookie = r.headers.count("set-cookie") ? r.headers.at("set-cookie") : std::string();
    return {text_of(d, "authorize_url"), text_of(d, "state"), set_cookie.substr(0, set_cookie.find(';')), headers};
}
std::string param(const std::string& url, const char* name) {
    const auto q = url.find('?');
    return cabinet::query_param(q == std::string::npos ? "" : url.substr(q + 1), name).value_or("");
}

// What the front end's /oauth/callback page receives from the provider's redirect.
struct Redirect {
    std::string code;
    std::string state;
    std::string device_id;
    std::string cookie;                // the browser's binding cookie, sent back with the callback
    std::vector<std::string> headers;  // and the credential of a link started signed in
};
Redirect sign_in_at_provider(const Started& s, const Person& p) {
    const auto r = http_url("GET", s.url + "&fake_user=" + cabinet::form_encode(p.json()));
    BOOST_REQUIRE_MESSAGE(r.status == 302, r.status << " " << r.body);
    const std::string to = r.headers.at("location");
    return {param(to, "code"), param(to, "state"), param(to, "device_id"), s.cookie, s.headers};
}
HttpResult callback(const std::string& provider, const Redirect& r) {
    std::string body = R"({"provider":")" + provider + R"(","code":")" + r.code + R"(","state":")" + r.state + "\"";
    if (!r.device_id.empty()) body += R"(,"device_id":")" + r.device_id + "\"";
    std::vector<std::string> headers{"Content-Type: application/json"};
    if (!r.cookie.empty()) headers.push_back("Cookie: " + r.cookie);
    headers.insert(headers.end(), r.headers.begin(), r.headers.end());
    return http("POST", "/api/cabinet/auth/oauth/callback", headers, body + "}");
}
HttpResult login(const std::string& provider, const Person& p, const std::vector<std::string>& headers = {}) {
    return callback(provider, sign_in_at_provider(authorize(provider, headers), p));
}
int64_t user_of(const HttpResult& r) {
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    return r.json()["user"]["id"].GetInt64();
}
int64_t links(const std::string& provider, const std::string& sub) {
    return count("SELECT count(*) FROM user_oauth_links WHERE provider = '" + provider + "' AND subject = '" + sub + "'");
}
int64_t caller_id(const std::string& auth_header) {
    const auto r = http("GET", "/api/cabinet/me", {auth_header});
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const auto d = r.json();
    return d.HasMember("user") ? d["user"]["id"].GetInt64() : d["id"].GetInt64();
}
// POST /auth/refresh with a session's refresh token: its status (200 while the session lives).
long refresh(const HttpResult& session) {
    return http("POST", "/api/cabinet/auth/refresh", {"Content-Type: application/json"},
                R"({"refresh_token":")" + text_of(session.json(), "refresh_token") + "\"}").status;
}
HttpResult unlink(const std::string& provider, const std::string& auth_header) {
    return http("DELETE", "/api/cabinet/link/oauth/" + provider, {auth_header});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(oauth)

// An OAuth sign-in never joins an account whose e-mail was not proven: it may be a
// squatter's registration of the address (issue 13). The provider's user gets an account
// of their own, and the unverified one gets no OAuth link.
BOOST_AUTO_TEST_CASE(a_verified_provider_email_does_not_join_an_unverified_account) {
    const std::string email = fresh_oauth_email("squat");
    BOOST_REQUIRE_EQUAL(http("POST", "/api/cabinet/auth/register", {"Content-Type: application/json"},
                             R"({"email":")" + email + R"(","password":"squatter password"})").status, 200);
    const int64_t squatter = count("SELECT id FROM users WHERE email = '" + email + "'");
    const int64_t user = user_of(login("google", fresh_person(email, true)));
    BOOST_TEST(user != squatter);
    BOOST_TEST(count("SELECT count(*) FROM user_oauth_links WHERE user_id = " + std::to_string(squatter)) == 0);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(squatter) + " AND NOT email_verified") == 1);
}

BOOST_AUTO_TEST_CASE(authorize_answers_the_provider_url_and_a_state) {
    const std::string redirect = cabinet::form_encode(env("WEB_CABINET_URL") + "/oauth/callback");
    const std::map<std::string, std::string> scopes = {
        {"google", "openid email profile"}, {"yandex", "login:email login:info"}, {"vk", "email"}};
    for (const std::string p : kProviders) {
        std::string up = p;
        for (auto& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        const auto s = authorize(p);
        BOOST_TEST(s.state.size() == 43u, p);
        BOOST_TEST(s.url.rfind(env((up + "_AUTHORIZE_URL").c_str()) + "?", 0) == 0u, s.url);
        BOOST_TEST(param(s.url, "client_id") == env((up + "_CLIENT_ID").c_str()), p);
        BOOST_TEST(s.url.find("redirect_uri=" + redirect) != std::string::npos, s.url);
        BOOST_TEST(param(s.url, "state") == s.state, p);
        BOOST_TEST(param(s.url, "scope") == scopes.at(p), p);
        BOOST_TEST(param(s.url, "response_type") == "code", p);
        BOOST_TEST(param(s.url, "code_challenge").empty() == (p != "vk"), p);
        if (p == "vk") {
            BOOST_TEST(param(s.url, "code_challenge").size() == 43u);
            BOOST_TEST(param(s.url, "code_challenge_method") == "S256");
        }
    }
    BOOST_TEST(http("GET", "/api/cabinet/auth/oauth/github/authorize").status == 404);
    BOOST_TEST(authorize("google").state != authorize("google").state);
}

BOOST_AUTO_TEST_CASE(login_creates_a_user_once_per_identity) {
    for (const std::string p : kProviders) {
        const Person person = fresh_person(fresh_oauth_email(p), true);
        const auto first = login(p, person);
        const int64_t id = user_of(first);
        BOOST_TEST(first.json()["refresh_token"].GetStringLength() == 43u);
        BOOST_TEST(user_of(login(p, person)) == id, p);
        BOOST_TEST(links(p, person.sub) == 1, p);
        BOOST_TEST(count("SELECT count(*) FROM user_oauth_links WHERE user_id = " + std::to_string(id)) == 1, p);
        // The session works on the cabinet's routes.
        BOOST_TEST(caller_id("Authorization: Bearer " + text_of(first.json(), "access_token")) == id, p);
        // google and yandex vouch for the address; VK ID does not (decisions.md).
        const bool trusted = p != "vk";
        BOOST_TEST(text_of(first.json()["user"], "email") == (trusted ? person.email : ""), p);
        BOOST_TEST(first.json()["user"]["email_verified"].GetBool() == trusted, p);
    }
}

BOOST_AUTO_TEST_CASE(verified_email_of_an_existing_user_links_to_it) {
    const int64_t tg = fresh_telegram_id();
    const int64_t existing = caller_id(tma_header(tg));
    const std::string email = fresh_oauth_email("existing");
    exec("UPDATE users SET email = '" + email + "', email_verified = true WHERE id = " + std::to_string(existing));
    // Unverified by the provider: a new account, which does not get the address.
    const Person unverified = fresh_person(email, false);
    const int64_t other = user_of(login("google", unverified));
    BOOST_TEST(other != existing);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + std::to_string(other) + " AND email IS NULL") == 1);
    // Verified: the same person, signed in as the existing account.
    const Person verified = fresh_person(email, true);
    BOOST_TEST(user_of(login("google", verified)) == existing);
    BOOST_TEST(count("SELECT count(*) FROM user_oauth_links WHERE user_id = " + std::to_string(existing)) == 1);
}

BOOST_AUTO_TEST_CASE(a_state_is_single_use_short_lived_and_per_provider) {
    const Person person = fresh_person();
    const auto redirect = sign_in_at_provider(authorize("google"), person);
    // Another provider's callback neither accepts nor spends the state.
    const auto wrong = callback("yandex", redirect);
    BOOST_TEST(wrong.status == 400);
    BOOST_TEST(detail(wrong) == "OAuth state is invalid, used or expired");
    BOOST_TEST(callback("google", redirect).status == 200);
    BOOST_TEST(callback("google", redirect).status == 400);  // reused

    const auto stale = sign_in_at_provider(authorize("google"), fresh_person());
    exec("UPDATE oauth_states SET expires_at = now() - interval '1 second'"
         " WHERE state_hash = encode(sha256(convert_to('" + stale.state + "', 'UTF8')), 'hex')");
    BOOST_TEST(callback("google", stale).status == 400);
    BOOST_TEST(callback("google", Redirect{"some-code", "no-such-state", "", "", {}}).status == 400);
}

BOOST_AUTO_TEST_CASE(provider_failures_are_502_and_write_nothing) {
    const Person person = fresh_person(fresh_oauth_email("down"), true);
    const auto redirect = sign_in_at_provider(authorize("google"), person);
    BOOST_REQUIRE_EQUAL(http_url("POST", fake_url("/__fake/fail"), {"Content-Type: application/json"},
                                 R"({"service":"oauth","count":1,"status":500})").status, 200);
    const auto r = callback("google", redirect);
    http_url("DELETE", fake_url("/__fake/fail"));
    BOOST_TEST(r.status == 502);
    BOOST_TEST(detail(r).find("google token exchange failed") != std::string::npos, detail(r));
    BOOST_TEST(links("google", person.sub) == 0);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + person.email + "'") == 0);

    // A code the provider refuses: its OAuth error, still 502.
    auto bad = sign_in_at_provider(authorize("yandex"), person);
    bad.code = "not-a-code";
    const auto refused = callback("yandex", bad);
    BOOST_TEST(refused.status == 502);
    BOOST_TEST(detail(refused).find("invalid_grant") != std::string::npos, detail(refused));
    BOOST_TEST(links("yandex", person.sub) == 0);
}

// The state belongs to the browser that asked for it (issue 13): a __Host- cookie set at
// authorize must come back with the callback; a state finished without it, or with
// another browser's, signs nobody in and is spent.
BOOST_AUTO_TEST_CASE(the_state_is_bound_to_the_browser_that_started_it) {
    const auto started = authorize("google");
    BOOST_TEST(started.cookie.rfind("__Host-cabinet_oauth=", 0) == 0u, started.cookie);
    const auto raw = http("GET", "/api/cabinet/auth/oauth/google/authorize").headers.at("set-cookie");
    for (const char* attribute : {"; Path=/", "; Secure", "; HttpOnly", "; SameSite=Strict", "; Max-Age=600"})
        BOOST_TEST(raw.find(attribute) != std::string::npos, raw);

    const Person person = fresh_person(fresh_oauth_email("bound"), true);
    auto elsewhere = sign_in_at_provider(started, person);
    elsewhere.cookie.clear();  // finished in a browser that never asked
    const auto refused = callback("google", elsewhere);
    BOOST_TEST(refused.status == 400);
    BOOST_TEST(detail(refused) == "OAuth sign-in was started in another browser; start again");
    elsewhere.cookie = authorize("google").cookie;  // another browser's own binding
    BOOST_TEST(callback("google", elsewhere).status == 400);
    BOOST_TEST(links("google", person.sub) == 0);

    // The browser keeps one binding: two tabs signing in at once both finish.
    const auto tab1 = authorize("google");
    const auto tab2 = authorize("google", {"Cookie: " + tab1.cookie});
    BOOST_TEST(tab2.cookie == tab1.cookie);
    BOOST_TEST(user_of(callback("google", sign_in_at_provider(tab2, person))) > 0);
    BOOST_TEST(user_of(callback("google", sign_in_at_provider(tab1, fresh_person(fresh_oauth_email("tab"), true)))) > 0);
}

// An attacker's link-mode state cannot be finished for them by someone else: the callback
// needs the credential of the account that started it.
BOOST_AUTO_TEST_CASE(link_mode_needs_the_starting_account_at_the_callback) {
    const std::string attacker = tma_header(fresh_telegram_id());
    const int64_t attacker_id = caller_id(attacker);
    const Person victim = fresh_person(fresh_oauth_email("victim"), true);
    auto redirect = sign_in_at_provider(authorize("google", {attacker}), victim);
    redirect.headers.clear();  // the victim's browser finishes it, without the attacker's credential
    const auto r = callback("google", redirect);
    BOOST_TEST(r.status == 403);
    BOOST_TEST(detail(r) == "linking must be finished by the account that started it");
    const std::string someone = tma_header(fresh_telegram_id());
    caller_id(someone);
    auto other = sign_in_at_provider(authorize("google", {attacker}), victim);
    other.headers = {someone};
    BOOST_TEST(callback("google", other).status == 403);
    BOOST_TEST(links("google", victim.sub) == 0);
    BOOST_TEST(count("SELECT count(*) FROM user_oauth_links WHERE user_id = " + std::to_string(attacker_id)) == 0);
}

BOOST_AUTO_TEST_CASE(a_signed_in_user_links_an_identity) {
    const std::string tma = tma_header(fresh_telegram_id());
    const int64_t id = caller_id(tma);
    const Person person = fresh_person(fresh_oauth_email("link"), true);
    BOOST_TEST(user_of(login("yandex", person, {tma})) == id);
    BOOST_TEST(caller_id(tma) == id);
    BOOST_TEST(count("SELECT count(*) FROM user_oauth_links WHERE provider = 'yandex' AND subject = '" + person.sub +
                     "' AND user_id = " + std::to_string(id)) == 1);
    // Logging in with it now signs in as that user.
    BOOST_TEST(user_of(login("yandex", person)) == id);
    // Nobody else can link the same identity.
    const std::string other = tma_header(fresh_telegram_id());
    caller_id(other);
    const auto taken = login("yandex", person, {other});
    BOOST_TEST(taken.status == 409);
    BOOST_TEST(links("yandex", person.sub) == 1);
    // A second account of the same provider is refused while one is linked.
    BOOST_TEST(login("yandex", fresh_person(), {tma}).status == 409);
    // A bad Authorization header is a 401, not a silent login.
    BOOST_TEST(http("GET", "/api/cabinet/auth/oauth/vk/authorize", {"Authorization: Bearer nonsense"}).status == 401);
}

BOOST_AUTO_TEST_CASE(unlink_keeps_a_way_in) {
    const std::string tma = tma_header(fresh_telegram_id());
    caller_id(tma);
    const auto none = unlink("google", tma);
    BOOST_TEST(none.status == 404);
    BOOST_TEST(unlink("github", tma).status == 404);

    // An account made by OAuth alone cannot lose its only way in.
    const Person only = fresh_person();
    const auto session = login("vk", only);
    const std::string bearer = "Authorization: Bearer " + text_of(session.json(), "access_token");
    const auto last = unlink("vk", bearer);
    BOOST_TEST(last.status == 409);
    BOOST_TEST(links("vk", only.sub) == 1);
    // With a second identity, one of them can go.
    const Person second = fresh_person();
    BOOST_TEST(login("google", second, {bearer}).status == 200);
    const auto ok = unlink("vk", bearer);
    BOOST_REQUIRE_MESSAGE(ok.status == 200, ok.status << " " << ok.body);
    BOOST_TEST(text_of(ok.json(), "unlinked") == "vk");
    BOOST_TEST(ok.json()["ok"].GetBool());
    BOOST_TEST(links("vk", only.sub) == 0);
    BOOST_TEST(unlink("google", bearer).status == 409);

    // A Telegram user keeps Telegram.
    const Person linked = fresh_person();
    BOOST_TEST(login("google", linked, {tma}).status == 200);
    BOOST_TEST(unlink("google", tma).status == 200);
    BOOST_TEST(links("google", linked.sub) == 0);
}

// Whoever signed in through a provider may be why it is unlinked: its sessions end with
// it, except the caller's own; sessions begun another way go on.
BOOST_AUTO_TEST_CASE(unlinking_a_provider_ends_the_sessions_it_opened) {
    const std::string tma = tma_header(fresh_telegram_id());
    caller_id(tma);
    const Person person = fresh_person();
    const auto linked = login("google", person, {tma});
    const auto later = login("google", person);
    BOOST_REQUIRE_EQUAL(linked.status, 200);
    BOOST_REQUIRE_EQUAL(later.status, 200);
    BOOST_REQUIRE(unlink("google", tma).status == 200);
    BOOST_TEST(refresh(linked) == 401);
    BOOST_TEST(refresh(later) == 401);

    // The caller's own session stays, and so does one of another provider.
    const Person owner = fresh_person();
    const auto mine = login("vk", owner);
    const std::string bearer = "Authorization: Bearer " + text_of(mine.json(), "access_token");
    const auto by_google = login("google", fresh_person(), {bearer});
    const auto elsewhere = login("vk", owner);
    BOOST_REQUIRE_EQUAL(by_google.status, 200);
    BOOST_REQUIRE_EQUAL(elsewhere.status, 200);
    BOOST_REQUIRE(unlink("vk", bearer).status == 200);
    BOOST_TEST(refresh(elsewhere) == 401);
    BOOST_TEST(refresh(mine) == 200);
    BOOST_TEST(refresh(by_google) == 200);
}

// From the mini-app (init data, no web session of its own) "sign out everywhere else" ends
// every web session of the account.
BOOST_AUTO_TEST_CASE(the_mini_app_signs_out_every_web_session) {
    const std::string tma = tma_header(fresh_telegram_id());
    caller_id(tma);
    const auto web = login("yandex", fresh_person(), {tma});
    BOOST_REQUIRE_EQUAL(web.status, 200);
    const auto r = http("POST", "/api/cabinet/auth/logout-others", {tma, "Content-Type: application/json"}, "{}");
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.body);
    BOOST_TEST(r.json()["ended"].GetInt64() == 1);
    BOOST_TEST(refresh(web) == 401);
}

BOOST_AUTO_TEST_CASE(blocked_users_get_403) {
    const Person person = fresh_person();
    const int64_t id = user_of(login("google", person));
    exec("UPDATE users SET is_blocked = true WHERE id = " + std::to_string(id));
    const auto r = login("google", person);
    BOOST_TEST(r.status == 403);
}

BOOST_AUTO_TEST_CASE(disabled_web_cabinet_is_403) {
    const auto redirect = sign_in_at_provider(authorize("google"), fresh_person());
    PoolWith pool("WEB_CABINET_ENABLED=false");
    const auto a = http("GET", "/api/cabinet/auth/oauth/google/authorize");
    BOOST_TEST(a.status == 403);
    BOOST_TEST(detail(a) == "web cabinet is disabled");
    BOOST_TEST(callback("google", redirect).status == 403);
}

BOOST_AUTO_TEST_SUITE_END()
