#pragma once
// What the web cabinet's session tests share (web_auth_test.cpp, web_auth_limits_test.cpp):
// requests to /api/cabinet/auth/*, the fake SMTP server's mails, the session's checks.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "support.hpp"

namespace it::web_session {

inline const std::string kPassword = "correct horse battery";

inline std::string fresh_email(const std::string& tag) {
    return "wa" + std::to_string(fresh_telegram_id()) + "." + tag + "@Example.test";  // mixed case on purpose
}
inline std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

inline HttpResult post(const std::string& what, const std::string& body) {
    return http("POST", "/api/cabinet/auth/" + what, {"Content-Type: application/json"}, body);
}
// An English page's request (register takes the page's language for the account's mails).
inline std::string creds(const std::string& email, const std::string& password) {
    return R"({"email":")" + email + R"(","password":")" + password + R"(","language":"en"})";
}
inline std::string field(const std::string& name, const std::string& value) { return "{\"" + name + "\":\"" + value + "\"}"; }

// Mails the fake SMTP server received for `to`, oldest first, as raw text.
inline std::vector<std::string> mails_to(const std::string& to) {
    const auto r = http_url("GET", "http://127.0.0.1:" + env("FAKES_PORT") + "/__fake/mail?to=" + to);
    BOOST_REQUIRE_EQUAL(r.status, 200);
    std::vector<std::string> out;
    const auto d = r.json();
    for (const auto& m : d.GetArray()) out.emplace_back(m["raw"].GetString());
    return out;
}
// Waits for the `n`-th mail to `to` (the worker sends it) and returns it.
inline std::string wait_mail(const std::string& to, size_t n = 1) {
    std::vector<std::string> got;
    const bool ok = wait_until([&] { return (got = mails_to(to)).size() >= n; }, 15000);
    BOOST_REQUIRE_MESSAGE(ok, "no mail #" << n << " to " << to);
    return got[n - 1];
}
inline std::string token_in(const std::string& mail) {
    const auto at = mail.find("token=");
    BOOST_REQUIRE(at != std::string::npos);
    size_t end = at + 6;
    while (end < mail.size() && (std::isalnum(static_cast<unsigned char>(mail[end])) || mail[end] == '-' || mail[end] == '_')) ++end;
    return mail.substr(at + 6, end - at - 6);
}

inline void check_session(const HttpResult& r, const std::string& email) {
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const auto s = r.json();
    BOOST_TEST(s["access_token"].GetStringLength() > 20u);
    BOOST_TEST(s["refresh_token"].GetStringLength() == 43u);
    BOOST_TEST(std::string(s["token_type"].GetString()) == "bearer");
    BOOST_TEST(s["expires_in"].GetInt64() == 900);
    BOOST_TEST(s["user"]["id"].GetInt64() > 0);
    BOOST_TEST(std::string(s["user"]["email"].GetString()) == lower(email));
    BOOST_TEST(s["user"]["email_verified"].GetBool());
}
inline std::string refresh_of(const HttpResult& r) { return r.json()["refresh_token"].GetString(); }

// Registers, reads the mail, verifies: the session of a new verified account.
inline HttpResult register_and_verify(const std::string& email) {
    BOOST_REQUIRE_EQUAL(post("register", creds(email, kPassword)).status, 200);
    return post("verify", field("token", mailed_verification_token(lower(email))));
}

}  // namespace it::web_session
