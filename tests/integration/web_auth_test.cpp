// Web cabinet sessions (issue 7; SPEC-GAPS "Auth and sessions") through nginx, with the
// fake SMTP server (tests/fakes/smtp.mjs) catching the verification mails the worker sends.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <chrono>
#include <thread>

#include "auth/jwt.hpp"
#include "support.hpp"
#include "util/time.hpp"
#include "util/web_tokens.hpp"
#include "web_auth_support.hpp"

using namespace it;
using namespace it::web_session;

BOOST_AUTO_TEST_SUITE(web_auth)

BOOST_AUTO_TEST_CASE(register_mail_verify_me_login_refresh_reuse_logout) {
    const std::string email = fresh_email("flow");
    const auto reg = post("register", creds(email, kPassword));
    BOOST_REQUIRE_MESSAGE(reg.status == 200, reg.body);
    const auto body = reg.json();
    BOOST_TEST(body["ok"].GetBool());
    BOOST_TEST(body["requires_verification"].GetBool());
    BOOST_TEST(std::string(body["email"].GetString()) == lower(email));

    // The mail: MIME multipart/alternative with the one-time link, Date and Message-ID.
    const std::string mail = wait_mail(lower(email));
    BOOST_TEST(mail.find("To: " + lower(email) + "\r\n") != std::string::npos);
    BOOST_TEST(mail.find("From: Cabinet <noreply@cabinet.test>\r\n") != std::string::npos);
    BOOST_TEST(mail.find("Content-Type: multipart/alternative;") != std::string::npos);
    BOOST_TEST(mail.find("Content-Type: text/plain; charset=utf-8") != std::string::npos);
    BOOST_TEST(mail.find("Content-Type: text/html; charset=utf-8") != std::string::npos);
    BOOST_TEST(mail.find("\r\nDate: ") != std::string::npos);
    BOOST_TEST(mail.find("\r\nMessage-ID: <") != std::string::npos);
    BOOST_TEST(mail.find(env("WEB_CABINET_URL") + "/verify?token=") != std::string::npos);
    const std::string token = token_in(mail);

    // Stored hashed; the user is web-only and not verified yet.
    const std::string uid = "(SELECT id FROM users WHERE email = '" + lower(email) + "')";
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens WHERE token_hash = '" +
                     cabinet::opaque_token_hash(token) + "' AND user_id = " + uid) == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + uid +
                     " AND telegram_id IS NULL AND NOT email_verified AND referral_code <> ''") == 1);
    // The job row does not keep the link once the mail is out.
    BOOST_TEST(wait_until([&] { return count("SELECT count(*) FROM jobs WHERE kind = 'send_mail' AND payload->>'to' = '" +
                                             lower(email) + "' AND status = 'done' AND NOT payload ? 'text'") == 1; }, 5000));

    const auto verified = post("verify", field("token", token));
    check_session(verified, email);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE id = " + uid + " AND email_verified") == 1);
    BOOST_TEST(post("verify", field("token", token)).status == 400);  // single use

    const std::string access = verified.json()["access_token"].GetString();
    const auto me = http("GET", "/api/cabinet/me", {"Authorization: Bearer " + access});
    BOOST_REQUIRE_MESSAGE(me.status == 200, me.body);

    const auto login = post("login", creds(email, kPassword));
    check_session(login, email);
    const std::string r1 = refresh_of(login);
    const auto refreshed = post("refresh", field("refresh_token", r1));
    check_session(refreshed, email);
    const std::string r2 = refresh_of(refreshed);
    BOOST_TEST(r2 != r1);
    // Within the grace period r1 is the other tab of the same browser: it gets r2 again.
    const auto second_tab = post("refresh", field("refresh_token", r1));
    check_session(second_tab, email);
    BOOST_TEST(refresh_of(second_tab) == r2);
    // After it, r1 was rotated and copied: presenting it revokes the family, r2 included.
    exec("UPDATE refresh_tokens SET rotated_at = now() - interval '11 seconds' WHERE token_hash = '" +
         cabinet::opaque_token_hash(r1) + "'");
    const auto reuse = post("refresh", field("refresh_token", r1));
    BOOST_TEST(reuse.status == 401);
    BOOST_TEST(post("refresh", field("refresh_token", r2)).status == 401);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = " + uid + " AND token_hash IN ('" +
                     cabinet::opaque_token_hash(r1) + "','" + cabinet::opaque_token_hash(r2) + "') AND revoked_at IS NOT NULL") == 2);
    // The verify session is another family: untouched.
    check_session(post("refresh", field("refresh_token", refresh_of(verified))), email);

    const std::string r3 = refresh_of(post("login", creds(lower(email), kPassword)));
    const auto out = post("logout", field("refresh_token", r3));
    BOOST_REQUIRE_EQUAL(out.status, 200);
    BOOST_TEST(out.json()["ok"].GetBool());
    BOOST_TEST(post("refresh", field("refresh_token", r3)).status == 401);
}

// A Russian shop's customer may write an address in Cyrillic, with capitals: it is
// registered in lowercase (the users table holds lower(email)), not a 500, and is the same
// account however it is typed afterwards.
BOOST_AUTO_TEST_CASE(an_address_with_cyrillic_capitals_registers_as_one_account) {
    const std::string tag = std::to_string(fresh_telegram_id());
    const std::string typed = "Иван" + tag + "@Почта.РФ", stored = "иван" + tag + "@почта.рф";
    const auto reg = post("register", creds(typed, kPassword));
    BOOST_REQUIRE_MESSAGE(reg.status == 200, reg.body);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + stored + "'") == 1);
    // Typed in other capitals, the same account: its password is checked, then it is told
    // what is missing (the mailbox was not proven yet).
    const auto login = post("login", creds("ИВАН" + tag + "@ПОЧТА.рф", kPassword));
    BOOST_TEST(login.status == 403, login.body);
    BOOST_TEST(detail(login).find("not verified") != std::string::npos, login.body);
    // The mail reaches the mailbox (libcurl asks the relay for SMTPUTF8, which it needs for
    // such an address), and its link verifies the account.
    check_session(post("verify", field("token", mailed_verification_token(stored))), stored);
}

BOOST_AUTO_TEST_CASE(expired_verification_link_is_400) {
    const std::string email = fresh_email("expired");
    BOOST_REQUIRE_EQUAL(post("register", creds(email, kPassword)).status, 200);
    const std::string token = mailed_verification_token(lower(email));
    exec("UPDATE email_verification_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = '" +
         cabinet::opaque_token_hash(token) + "'");
    const auto r = post("verify", field("token", token));
    BOOST_TEST(r.status == 400);
    BOOST_TEST(!detail(r).empty());
}

BOOST_AUTO_TEST_CASE(registering_a_taken_email_reveals_nothing_and_mails_the_owner) {
    const std::string email = fresh_email("taken");
    check_session(register_and_verify(email), email);
    const auto again = post("register", creds(email, "another password"));
    BOOST_REQUIRE_EQUAL(again.status, 200);
    // Byte for byte the answer a new address gets.
    const std::string other = fresh_email("other");
    std::string expected = post("register", creds(other, "another password")).body;
    expected.replace(expected.find(lower(other)), lower(other).size(), lower(email));
    BOOST_TEST(again.body == expected);
    const auto b = again.json();
    BOOST_TEST(b["ok"].GetBool());
    BOOST_TEST(b["requires_verification"].GetBool());
    const std::string notice = wait_mail(lower(email), 2);
    BOOST_TEST(notice.find("Subject: Sign-up attempt with your e-mail") != std::string::npos);
    BOOST_TEST(notice.find("token=") == std::string::npos);
    // Nothing changed: the old password still works, the new one does not.
    BOOST_TEST(post("login", creds(email, kPassword)).status == 200);
    BOOST_TEST(post("login", creds(email, "another password")).status == 401);
}

// An address registered twice is contested: each mail's link confirms the mailbox, and the
// password of that link's own registration confirms who registered. Nobody's click switches
// on a password someone else chose, whichever registration came first.
std::string token_and_password(const std::string& token, const std::string& password) {
    return R"({"token":")" + token + R"(","password":")" + password + R"("})";
}

// A squatter registers the owner's address first (issue 13), the owner registers after.
BOOST_AUTO_TEST_CASE(a_squatters_password_is_never_switched_on_by_the_owner) {
    const std::string email = fresh_email("squat");
    BOOST_REQUIRE_EQUAL(post("register", creds(email, "squatter password")).status, 200);
    const std::string squatter_link = mailed_verification_token(lower(email), 1);
    BOOST_REQUIRE_EQUAL(post("register", creds(email, "owner password")).status, 200);
    const std::string owner_link = mailed_verification_token(lower(email), 2);
    BOOST_TEST(owner_link != squatter_link);
    // The click alone no longer verifies, and another registration's password does not either.
    const auto bare = post("verify", field("token", owner_link));
    BOOST_TEST(bare.status == 409, bare.body);
    BOOST_TEST(detail(bare) == "this address was registered more than once: enter the password you chose");
    BOOST_TEST(post("verify", token_and_password(owner_link, "squatter password")).status == 401);
    BOOST_TEST(post("verify", token_and_password(squatter_link, "owner password")).status == 401);
    BOOST_TEST(post("login", creds(email, "squatter password")).status == 403);  // nothing verified yet
    check_session(post("verify", token_and_password(owner_link, "owner password")), email);
    BOOST_TEST(post("login", creds(email, "owner password")).status == 200);
    BOOST_TEST(post("login", creds(email, "squatter password")).status == 401);
    // The address is the owner's now: the squatter's link is over, even with its password.
    BOOST_TEST(post("verify", token_and_password(squatter_link, "squatter password")).status == 400);
    BOOST_TEST(post("login", creds(email, "owner password")).status == 200);
}

// The owner registers first; before the owner clicks, someone registers the same address
// again with a password of their own, and the owner gets a second, identical mail.
BOOST_AUTO_TEST_CASE(a_later_registrants_password_is_never_switched_on_by_the_owner) {
    const std::string email = fresh_email("second");
    BOOST_REQUIRE_EQUAL(post("register", creds(email, "owner password")).status, 200);
    const std::string owner_link = mailed_verification_token(lower(email), 1);
    BOOST_REQUIRE_EQUAL(post("register", creds(email, "attacker password")).status, 200);
    const std::string attacker_link = mailed_verification_token(lower(email), 2);
    // The owner clicks the newest mail, then types their own password: refused, nothing set.
    BOOST_TEST(post("verify", field("token", attacker_link)).status == 409);
    BOOST_TEST(post("verify", token_and_password(attacker_link, "owner password")).status == 401);
    BOOST_TEST(post("login", creds(email, "attacker password")).status == 401);
    // The owner's own link, with the owner's password: verified, and only that password opens it.
    BOOST_TEST(post("verify", field("token", owner_link)).status == 409);
    check_session(post("verify", token_and_password(owner_link, "owner password")), email);
    BOOST_TEST(post("login", creds(email, "attacker password")).status == 401);
    BOOST_TEST(post("login", creds(email, "owner password")).status == 200);
    BOOST_TEST(post("verify", token_and_password(attacker_link, "attacker password")).status == 400);
    BOOST_TEST(post("login", creds(email, "attacker password")).status == 401);
}

BOOST_AUTO_TEST_CASE(unknown_email_and_wrong_password_look_the_same) {
    const std::string email = fresh_email("timing");
    check_session(register_and_verify(email), email);
    std::vector<double> unknown, wrong;
    std::string unknown_body, wrong_body;
    long unknown_status = 0, wrong_status = 0;
    for (int i = 0; i < 20; ++i) {
        for (int which = 0; which < 2; ++which) {  // alternated, so load drifts hit both alike
            const auto t0 = std::chrono::steady_clock::now();
            const auto r = which == 0 ? post("login", creds(fresh_email("nobody"), "wrong password"))
                                      : post("login", creds(email, "wrong password"));
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            (which == 0 ? unknown : wrong).push_back(ms);
            (which == 0 ? unknown_status : wrong_status) = r.status;
            (which == 0 ? unknown_body : wrong_body) = r.body;
        }
    }
    BOOST_TEST(unknown_status == 401);
    BOOST_TEST(wrong_status == 401);
    BOOST_TEST(unknown_body == wrong_body);
    BOOST_TEST(detail(HttpResult{401, wrong_body, {}}) == "invalid e-mail or password");
    // The fastest of each kind: the work a request does sets a floor that load on the
    // machine only adds to, so the minima compare the two paths' work where medians, on a
    // machine busy building, once differed by 12 ms with identical code paths.
    const double mu = *std::min_element(unknown.begin(), unknown.end());
    const double mw = *std::min_element(wrong.begin(), wrong.end());
    BOOST_TEST_MESSAGE("fastest login: unknown e-mail " << mu << " ms, wrong password " << mw << " ms");
    // Within 20 %, or half a millisecond: the test stack hashes at libsodium's minimum cost
    // (a few ms here); skipping the dummy hash shows as a gap of 4 ms (checked by removing it).
    BOOST_TEST(std::abs(mu - mw) <= std::max(0.2 * std::max(mu, mw), 0.5));
}

BOOST_AUTO_TEST_CASE(unverified_login_is_403) {
    const std::string email = fresh_email("unverified");
    BOOST_REQUIRE_EQUAL(post("register", creds(email, kPassword)).status, 200);
    const auto r = post("login", creds(email, kPassword));
    BOOST_TEST(r.status == 403);
    BOOST_TEST(detail(r) == "e-mail is not verified");
    BOOST_TEST(post("login", creds(email, "wrong password")).status == 401);  // no hint without the password
}

BOOST_AUTO_TEST_CASE(blocked_user_gets_no_session) {
    const std::string email = fresh_email("blocked");
    check_session(register_and_verify(email), email);
    exec("UPDATE users SET is_blocked = true WHERE email = '" + lower(email) + "'");
    const auto r = post("login", creds(email, kPassword));
    BOOST_TEST(r.status == 403);
    BOOST_TEST(detail(r) == "user is blocked");
}

BOOST_AUTO_TEST_CASE(bad_input_is_400_and_writes_nothing) {
    const auto users = count("SELECT count(*) FROM users");
    const auto tokens = count("SELECT count(*) FROM email_verification_tokens");
    const std::string ok_email = fresh_email("bad");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"register", creds("not-an-email", kPassword)},
        {"register", creds("a@b", kPassword)},
        {"register", creds("a b@example.test", kPassword)},
        {"register", creds(ok_email, "short")},
        {"register", creds(ok_email, std::string(129, 'x'))},
        {"register", R"({"email":")" + ok_email + R"("})"},
        {"register", R"({"password":"long enough password"})"},
        {"register", R"({"email":42,"password":"long enough password"})"},
        {"register", "not json"},
        {"register", "[1,2]"},
        {"login", R"({"email":")" + ok_email + R"("})"},
        {"login", "{"},
        {"verify", "{}"},
        {"verify", R"({"token":17})"},
        {"refresh", "{}"},
        {"logout", "{}"},
    };
    for (const auto& [what, body] : cases) {
        const auto r = post(what, body);
        BOOST_TEST(r.status == 400, what << " " << body << " -> " << r.status << " " << r.body);
        BOOST_TEST(!detail(r).empty(), what << " " << body);
    }
    BOOST_TEST(count("SELECT count(*) FROM users") == users);
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens") == tokens);
}


BOOST_AUTO_TEST_CASE(parallel_verifies_of_one_token_make_one_session) {
    const std::string email = fresh_email("race");
    BOOST_REQUIRE_EQUAL(post("register", creds(email, kPassword)).status, 200);
    const std::string token = mailed_verification_token(lower(email));
    std::atomic<int> ok{0}, bad{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i)
        threads.emplace_back([&] {
            const long s = post("verify", field("token", token)).status;
            (s == 200 ? ok : s == 400 ? bad : other)++;
        });
    for (auto& t : threads) t.join();
    BOOST_TEST(ok.load() == 1);
    BOOST_TEST(bad.load() == 19);
    BOOST_TEST(other.load() == 0);
    BOOST_TEST(count("SELECT count(*) FROM refresh_tokens WHERE user_id = (SELECT id FROM users WHERE email = '" +
                     lower(email) + "')") == 1);
}

BOOST_AUTO_TEST_CASE(everything_is_403_when_the_web_cabinet_is_off) {
    // A session from before the switch (issue 13): its access token stops working too.
    const std::string email = fresh_email("switched");
    const auto session = register_and_verify(email);
    check_session(session, email);
    const std::string bearer = std::string("Authorization: Bearer ") + session.json()["access_token"].GetString();
    BOOST_REQUIRE_EQUAL(http("GET", "/api/cabinet/me", {bearer}).status, 200);
    PoolWith pool("WEB_CABINET_ENABLED=false");
    const auto me = http("GET", "/api/cabinet/me", {bearer});
    BOOST_TEST(me.status == 403);
    BOOST_TEST(detail(me) == "web cabinet is disabled");
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(fresh_telegram_id())}).status == 200);  // the mini-app goes on
    for (const char* what : {"register", "verify", "login", "refresh", "logout"}) {
        const auto r = post(what, creds(fresh_email("off"), kPassword));
        BOOST_TEST(r.status == 403, what);
        BOOST_TEST(detail(r) == "web cabinet is disabled", what);
    }
}

BOOST_AUTO_TEST_SUITE_END()

// A browser buyer goes to the gateway's page and must come back to the web cabinet with the
// payment to wait for; a mini-app buyer comes back to the mini-app as before.
BOOST_AUTO_TEST_SUITE(web_checkout_return)

BOOST_AUTO_TEST_CASE(web_buyer_returns_to_the_web_cabinet_and_the_mini_app_buyer_to_the_mini_app) {
    const auto session = register_and_verify(fresh_email("checkout"));
    const std::string bearer = std::string("Authorization: Bearer ") + session.json()["access_token"].GetString();
    const auto buy = [](const std::string& auth, const std::string& method) {
        return http("POST", "/api/cabinet/purchase", {auth, "Content-Type: application/json"},
                    R"({"plan_id":"standard","days":30,"method":")" + method + "\"}");
    };
    const auto provider_id = [](int64_t tx) {
        pqxx::connection conn(env("DATABASE_URL"));
        pqxx::nontransaction q(conn);
        return std::string(q.exec_params("SELECT provider_payment_id FROM transactions WHERE id = $1", tx)[0][0].c_str());
    };
    const auto return_url_of = [&](int64_t tx) {
        const auto p = http_url("GET", fake_url("/__fake/yookassa/payments/" + provider_id(tx)));
        BOOST_REQUIRE_EQUAL(p.status, 200);
        return std::string(p.json()["confirmation"]["return_url"].GetString());
    };

    const auto web = buy(bearer, "yookassa");
    BOOST_REQUIRE_MESSAGE(web.status == 200, web.body);
    const int64_t web_tx = web.json()["transaction_id"].GetInt64();
    BOOST_TEST(return_url_of(web_tx) == env("WEB_CABINET_URL") + "/?payment=" + std::to_string(web_tx));

    const std::string tma = tma_header(fresh_telegram_id());
    const auto app = buy(tma, "yookassa");
    BOOST_REQUIRE_MESSAGE(app.status == 200, app.body);
    const std::string back = return_url_of(app.json()["transaction_id"].GetInt64());
    BOOST_TEST(back.find("/cabinet") == std::string::npos);
    BOOST_TEST(back.find("payment=") == std::string::npos);

    // CryptoBot: the paid page's button leads back the same way.
    const auto crypto = buy(bearer, "cryptobot");
    BOOST_REQUIRE_MESSAGE(crypto.status == 200, crypto.body);
    const auto journal = http_url("GET", fake_url("/__fake/journal?service=cryptobot&path=/api/createInvoice"));
    const auto& calls = journal.json();
    BOOST_REQUIRE(calls.IsArray() && calls.Size() > 0);
    const auto& sent = calls[calls.Size() - 1]["json"];
    BOOST_TEST(std::string(sent["paid_btn_name"].GetString()) == "callback");
    BOOST_TEST(std::string(sent["paid_btn_url"].GetString()) ==
               env("WEB_CABINET_URL") + "/?payment=" + std::to_string(crypto.json()["transaction_id"].GetInt64()));
}

BOOST_AUTO_TEST_SUITE_END()
