// Passwords and the e-mail sign-in (issue 49; services/web_auth.hpp): "forgot password"
// mails a single-use link that sets a new password and ends every session; the same answer
// for an address we do not know; a signed-in change asks the current password, ends the
// other sessions and tells the address; a verification mail can be asked for again (paced);
// the e-mail sign-in comes off an account that keeps another way in, and never off the last.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "auth/passwords.hpp"
#include "support.hpp"
#include "web_auth_support.hpp"

using namespace it;
using namespace it::web_session;

namespace {

const std::string kNewPassword = "a brand new passphrase";

HttpResult signed_in(const std::string& method, const std::string& path, const std::string& access, const std::string& body = {}) {
    std::vector<std::string> headers{"Authorization: Bearer " + access};
    if (!body.empty()) headers.push_back("Content-Type: application/json");
    return http(method, path, headers, body);
}
std::string access_of(const HttpResult& r) { return r.json()["access_token"].GetString(); }

bool mail_says(const std::string& to, const std::string& what) {
    for (const auto& m : mails_to(to))
        if (m.find(what) != std::string::npos) return true;
    return false;
}
int64_t user_of(const std::string& email) { return count("SELECT id FROM users WHERE email = '" + lower(email) + "'"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(passwords)

BOOST_AUTO_TEST_CASE(forgot_password_mails_a_single_use_link_that_sets_a_new_one_and_ends_every_session) {
    const std::string email = fresh_email("forgot");
    const auto first = register_and_verify(email);
    check_session(first, email);
    const auto second = post("login", creds(email, kPassword));
    check_session(second, email);

    const auto asked = post("password/forgot", field("email", email));
    BOOST_REQUIRE_MESSAGE(asked.status == 200, asked.body);
    // An address we do not know gets the same answer (and no mail).
    const auto unknown = post("password/forgot", field("email", fresh_email("nobody")));
    BOOST_TEST(unknown.status == 200);
    BOOST_TEST(unknown.body == asked.body);
    // Asked again at once: no second link (one a minute per account).
    BOOST_TEST(post("password/forgot", field("email", email)).status == 200);
    BOOST_TEST(count("SELECT count(*) FROM password_reset_tokens WHERE user_id = " + str(user_of(email))) == 1);

    const std::string mail = wait_mail(lower(email), 2);  // after the verification mail
    BOOST_TEST(mail.find("Reset your password") != std::string::npos);
    BOOST_TEST(mail.find("/reset?token=") != std::string::npos);
    const std::string token = token_in(mail);
    // Stored hashed: the token itself is nowhere in the database.
    BOOST_TEST(count("SELECT count(*) FROM password_reset_tokens WHERE token_hash = '" + token + "'") == 0);

    BOOST_TEST(post("password/reset", R"({"token":")" + token + R"(","password":"short"})").status == 400);
    const auto reset = post("password/reset", R"({"token":")" + token + R"(","password":")" + kNewPassword + R"("})");
    check_session(reset, email);
    // Single use.
    BOOST_TEST(post("password/reset", R"({"token":")" + token + R"(","password":")" + kNewPassword + R"("})").status == 400);
    // Every earlier session ended: its refresh token and its access token are refused.
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(first))).status == 401);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(second))).status == 401);
    BOOST_TEST(signed_in("GET", "/api/cabinet/me", access_of(first)).status == 401);
    BOOST_TEST(signed_in("GET", "/api/cabinet/me", access_of(reset)).status == 200);
    // The old password is refused, the new one taken; the address is told.
    BOOST_TEST(post("login", creds(email, kPassword)).status == 401);
    check_session(post("login", creds(email, kNewPassword)), email);
    wait_mail(lower(email), 3);
    BOOST_TEST(mail_says(lower(email), "Your password was changed"));
}

BOOST_AUTO_TEST_CASE(a_reset_link_is_refused_once_expired_or_made_up) {
    const std::string email = fresh_email("expired");
    check_session(register_and_verify(email), email);
    BOOST_REQUIRE(post("password/forgot", field("email", email)).status == 200);
    const std::string token = token_in(wait_mail(lower(email), 2));
    exec("UPDATE password_reset_tokens SET expires_at = now() - interval '1 second' WHERE user_id = " + str(user_of(email)));
    BOOST_TEST(post("password/reset", R"({"token":")" + token + R"(","password":")" + kNewPassword + R"("})").status == 400);
    BOOST_TEST(post("password/reset", R"({"token":"made-up","password":")" + kNewPassword + R"("})").status == 400);
    check_session(post("login", creds(email, kPassword)), email);  // nothing changed
}

BOOST_AUTO_TEST_CASE(a_signed_in_change_asks_the_current_password_and_ends_the_other_sessions) {
    const std::string email = fresh_email("change");
    const auto mine = register_and_verify(email);
    check_session(mine, email);
    const auto other = post("login", creds(email, kPassword));
    check_session(other, email);
    const std::string path = "/api/cabinet/auth/password/change";

    // The wrong current password: 422 naming the field, nothing changed.
    const auto wrong = signed_in("POST", path, access_of(mine), R"({"current_password":"not it","password":")" + kNewPassword + R"("})");
    BOOST_TEST(wrong.status == 422);
    BOOST_TEST(str(wrong.json()["detail"]).rfind("current_password", 0) == 0);
    BOOST_TEST(signed_in("POST", path, access_of(mine), R"({"current_password":")" + kPassword + R"(","password":"short"})").status == 400);
    BOOST_TEST(signed_in("POST", path, "not-a-token", R"({"current_password":")" + kPassword + R"(","password":")" + kNewPassword + R"("})").status == 401);
    check_session(post("login", creds(email, kPassword)), email);

    const auto changed = signed_in("POST", path, access_of(mine), R"({"current_password":")" + kPassword + R"(","password":")" + kNewPassword + R"("})");
    BOOST_REQUIRE_MESSAGE(changed.status == 200, changed.body);
    BOOST_TEST(changed.json()["ended"].GetInt64() == 2);  // `other` and the check's login above
    // This session goes on; the others are over.
    BOOST_TEST(signed_in("GET", "/api/cabinet/me", access_of(mine)).status == 200);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(mine))).status == 200);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(other))).status == 401);
    BOOST_TEST(post("login", creds(email, kPassword)).status == 401);
    check_session(post("login", creds(email, kNewPassword)), email);
    wait_mail(lower(email), 2);
    BOOST_TEST(mail_says(lower(email), "Your password was changed"));

    // A Telegram account without a password has none to change.
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    const auto none = http("POST", path, {tma_header(tg), "Content-Type: application/json"},
                           R"({"current_password":"x","password":")" + kNewPassword + R"("})");
    BOOST_TEST(none.status == 409);
}

BOOST_AUTO_TEST_CASE(the_verification_mail_is_sent_again_when_asked_at_most_once_a_minute) {
    const std::string email = fresh_email("resend");
    BOOST_REQUIRE(post("register", creds(email, kPassword)).status == 200);
    wait_mail(lower(email), 1);
    const int64_t id = user_of(email);
    // Asked within the minute: the same answer, no second link.
    const auto early = post("verify/resend", field("email", email));
    BOOST_REQUIRE_MESSAGE(early.status == 200, early.body);
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens WHERE user_id = " + str(id)) == 1);
    // A minute later: a new link, which verifies.
    exec("UPDATE email_verification_tokens SET created_at = now() - interval '2 minutes' WHERE user_id = " + str(id));
    BOOST_TEST(post("verify/resend", field("email", email)).status == 200);
    const std::string token = token_in(wait_mail(lower(email), 2));
    check_session(post("verify", field("token", token)), email);
    // Verified, or unknown: the same answer, no mail.
    exec("UPDATE email_verification_tokens SET created_at = now() - interval '2 minutes' WHERE user_id = " + str(id));
    BOOST_TEST(post("verify/resend", field("email", email)).body == early.body);
    BOOST_TEST(post("verify/resend", field("email", fresh_email("nobody"))).body == early.body);
    BOOST_TEST(count("SELECT count(*) FROM email_verification_tokens WHERE user_id = " + str(id)) == 2);
    BOOST_TEST(post("verify/resend", field("email", "not an address")).status == 400);
}

BOOST_AUTO_TEST_CASE(the_email_sign_in_comes_off_an_account_with_another_way_in_never_off_the_last) {
    // A Telegram account with an e-mail sign-in (hashed as the test stack's settings hash).
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    BOOST_TEST(http("DELETE", "/api/cabinet/link/email", {tma_header(tg)}).status == 404);  // none yet
    const std::string email = lower(fresh_email("remove"));
    static const cabinet::PasswordHasher hasher(1, 8388608, 1);
    exec("UPDATE users SET email = '" + email + "', email_verified = true, password_hash = '" + hasher.hash(kPassword) +
         "' WHERE telegram_id = " + str(tg));
    const auto session = post("login", creds(email, kPassword));
    check_session(session, email);

    const auto removed = http("DELETE", "/api/cabinet/link/email", {tma_header(tg)});
    BOOST_REQUIRE_MESSAGE(removed.status == 200, removed.body);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE telegram_id = " + str(tg) +
                     " AND email IS NULL AND password_hash IS NULL AND NOT email_verified") == 1);
    BOOST_TEST(post("login", creds(email, kPassword)).status == 401);
    BOOST_TEST(post("refresh", field("refresh_token", refresh_of(session))).status == 401);  // its sessions ended

    // A web-only account: its e-mail is its only way in.
    const std::string only = fresh_email("only");
    const auto own = register_and_verify(only);
    check_session(own, only);
    BOOST_TEST(signed_in("DELETE", "/api/cabinet/link/email", access_of(own)).status == 409);
    check_session(post("login", creds(only, kPassword)), only);
}

// Registration takes the page's language: the account's mails are written in it; without
// one (the original's page) the shop's default, Russian.
BOOST_AUTO_TEST_CASE(the_accounts_mails_speak_the_language_it_registered_in) {
    const std::string ru = fresh_email("ru");
    BOOST_REQUIRE(post("register", R"({"email":")" + ru + R"(","password":")" + kPassword + R"(","language":"ru"})").status == 200);
    BOOST_TEST(wait_mail(lower(ru)).find("=?UTF-8?") != std::string::npos);  // a Russian subject, encoded
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + lower(ru) + "' AND language = 'ru'") == 1);
    const std::string none = fresh_email("none");
    BOOST_REQUIRE(post("register", R"({"email":")" + none + R"(","password":")" + kPassword + R"("})").status == 200);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + lower(none) + "' AND language = 'ru'") == 1);
    const std::string en = fresh_email("en");
    BOOST_REQUIRE(post("register", creds(en, kPassword)).status == 200);
    BOOST_TEST(wait_mail(lower(en)).find("Subject: Confirm your e-mail") != std::string::npos);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + lower(en) + "' AND language = 'en'") == 1);
}

// /me says how the customer is known where linked; /config names the bot (both additive).
BOOST_AUTO_TEST_CASE(me_names_the_telegram_id_and_the_linked_email_and_config_the_bot) {
    const std::string email = fresh_email("me");
    const auto session = register_and_verify(email);
    check_session(session, email);
    signed_in("GET", "/api/cabinet/me", access_of(session));  // the first read fills the pool's account cache …
    const auto web = signed_in("GET", "/api/cabinet/me", access_of(session));  // … the second comes from it
    BOOST_REQUIRE_MESSAGE(web.status == 200, web.body);
    BOOST_TEST(str(web.json()["user"]["email"]) == lower(email));
    BOOST_TEST(web.json()["user"]["telegram_id"].IsNull());
    const int64_t tg = fresh_telegram_id();
    http("GET", "/api/cabinet/me", {tma_header(tg)});
    const auto app = http("GET", "/api/cabinet/me", {tma_header(tg)});
    BOOST_REQUIRE_MESSAGE(app.status == 200, app.body);
    BOOST_TEST(app.json()["user"]["telegram_id"].GetInt64() == tg);
    BOOST_TEST(app.json()["user"]["email"].IsNull());
    const auto config = http("GET", "/api/cabinet/config", {});
    BOOST_TEST(str(config.json()["bot_username"]) == env("BOT_USERNAME"));
}

BOOST_AUTO_TEST_SUITE_END()
