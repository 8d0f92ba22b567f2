// Linking an e-mail to a Telegram account (POST /link/email, /link/email/confirm): the
// mailed code, its limits, parallel confirmations, and an unverified registration in the way.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>
#include <vector>

#include "linking_support.hpp"
#include "support.hpp"

using namespace it;
using namespace it::linking_help;

BOOST_AUTO_TEST_SUITE(linking_email)

BOOST_AUTO_TEST_CASE(link_email_then_login_reaches_the_same_user) {
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg);
    const std::string email = fresh_link_email("link");
    const auto r = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})", tma.substr(15));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    BOOST_TEST(r.json()["ok"].GetBool());
    BOOST_TEST(str(r.json()["email"]) == email);
    const std::string code = mailed_code(email);
    // Only the hashes are stored.
    BOOST_TEST(count("SELECT count(*) FROM email_link_codes WHERE email = '" + email + "' AND password_hash LIKE '$argon2id$%'"
                     " AND code_hash <> '" + code + "'") == 1);
    BOOST_TEST(login(email).status == 401);  // not a login before the code

    const auto ok = post_json("/api/cabinet/link/email/confirm", code_body(code), tma.substr(15));
    BOOST_REQUIRE_MESSAGE(ok.status == 200, ok.body);
    BOOST_TEST(str(ok.json()["email"]) == email);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(code), tma.substr(15)).status == 400);  // used
    const auto session = login(email);
    access_of(session);
    BOOST_TEST(session.json()["user"]["id"].GetInt64() == count("SELECT " + uid_of(tg)));
    const auto linked = http("GET", "/api/cabinet/linked", {tma});
    BOOST_TEST(linked.json()["has_password"].GetBool());
    BOOST_TEST(linked.json()["email_verified"].GetBool());

    // The address is taken now: another account gets 409.
    const auto other = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})",
                                 tma_header(fresh_telegram_id()).substr(15));
    BOOST_TEST(other.status == 409);
}

// An unverified web registration of the address is nobody's: it does not block the owner,
// who proves the mailbox by the code, and it loses the address (and its mailed link).
BOOST_AUTO_TEST_CASE(link_email_takes_the_address_from_an_unverified_registration) {
    const std::string email = fresh_link_email("squat");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/auth/register", R"({"email":")" + email + R"(","password":"squatter pass 1","language":"en"})").status, 200);
    const std::string squatter_link = mailed_verification_token(email);
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg).substr(15);
    const auto r = post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})", tma);
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.status << " " << r.body);
    const auto ok = post_json("/api/cabinet/link/email/confirm", code_body(mailed_code(email, 2)), tma);
    BOOST_REQUIRE_MESSAGE(ok.status == 200, ok.body);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "'") == 1);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "' AND id = " + uid_of(tg)) == 1);
    // The squatter's link is over, and their password opens nothing.
    BOOST_TEST(post_json("/api/cabinet/auth/verify", R"({"token":")" + squatter_link + R"("})").status == 400);
    BOOST_TEST(post_json("/api/cabinet/auth/login", R"({"email":")" + email + R"(","password":"squatter pass 1","language":"en"})").status == 401);
    access_of(login(email));
}

BOOST_AUTO_TEST_CASE(link_email_five_wrong_codes_kill_the_code) {
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    const std::string email = fresh_link_email("wrong");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})", tma).status, 200);
    const std::string code = mailed_code(email);
    for (int i = 1; i <= 4; ++i) BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), tma).status == 400);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), tma).status == 429);
    BOOST_TEST(post_json("/api/cabinet/link/email/confirm", code_body(code), tma).status == 429);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "'") == 0);
}

// A new code resets its 5 attempts, so the attempts of one code are no limit for someone who
// asks for code after code (or from account after account) and guesses at another person's
// address. The address takes 10 wrong codes a day from everyone together; then neither a
// code nor a guess, the right one included, until the day's window ends.
BOOST_AUTO_TEST_CASE(link_email_an_address_takes_ten_wrong_codes_a_day_from_all_accounts) {
    const std::string email = fresh_link_email("guessed");
    const std::string body = R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})";
    size_t mails = 0;
    // A new account asks for a code for the address and sends `wrong` wrong codes; its code.
    const auto guess = [&](int wrong, const std::string& tma) {
        BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", body, tma).status, 200);
        const std::string code = mailed_code(email, ++mails);
        for (int i = 0; i < wrong; ++i) post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), tma);
        return code;
    };
    guess(5, tma_header(fresh_telegram_id()).substr(15));  // 5
    guess(4, tma_header(fresh_telegram_id()).substr(15));  // 9
    const std::string last = tma_header(fresh_telegram_id()).substr(15);
    const std::string code = guess(0, last);
    const auto tenth = post_json("/api/cabinet/link/email/confirm", code_body(wrong_code(code)), last);
    BOOST_TEST(tenth.status == 400);  // the code itself had 4 attempts left
    const auto right = post_json("/api/cabinet/link/email/confirm", code_body(code), last);
    BOOST_TEST(right.status == 429);
    BOOST_TEST(detail(right) == "too many wrong codes for this e-mail today; try again later");
    BOOST_TEST(std::stoll(right.headers.at("retry-after")) > 86000);
    BOOST_TEST(post_json("/api/cabinet/link/email", body, tma_header(fresh_telegram_id()).substr(15)).status == 429);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + email + "'") == 0);
    // Another address is not affected.
    const std::string other = fresh_link_email("other");
    BOOST_TEST(post_json("/api/cabinet/link/email", R"({"email":")" + other + R"(","password":")" + kLinkPassword + R"("})",
                         tma_header(fresh_telegram_id()).substr(15)).status == 200);
}

BOOST_AUTO_TEST_CASE(link_email_parallel_confirmations_win_once) {
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    const std::string email = fresh_link_email("race");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})", tma).status, 200);
    const std::string code = mailed_code(email);
    std::atomic<int> ok{0}, other{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 20; ++i)
        threads.emplace_back([&] {
            const auto r = post_json("/api/cabinet/link/email/confirm", code_body(code), tma);
            (r.status == 200 ? ok : other)++;
        });
    for (auto& t : threads) t.join();
    BOOST_TEST(ok.load() == 1);
    BOOST_TEST(other.load() == 19);
}

// Requests for one address at a time, as registrations: parallel ones all passed the same
// reading of the limits and each mailed a code to a mailbox that may not be the caller's.
BOOST_AUTO_TEST_CASE(link_email_requests_at_once_mail_one_code) {
    const std::string tma = tma_header(fresh_telegram_id()).substr(15);
    const std::string email = fresh_link_email("burst");
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < 8; ++i)
        threads.emplace_back([&] {
            if (post_json("/api/cabinet/link/email", R"({"email":")" + email + R"(","password":")" + kLinkPassword + R"("})", tma)
                    .status == 200)
                ++ok;
        });
    for (auto& t : threads) t.join();
    BOOST_TEST(ok.load() >= 1);
    BOOST_TEST(count("SELECT count(*) FROM jobs WHERE kind = 'send_mail' AND payload->>'to' = '" + email + "'") == ok.load());
    BOOST_TEST(ok.load() <= 3);  // one arriving after the first is done may pass; not eight
}

// A code asked for while the account had no e-mail does not replace one that a merge
// brought in since: the merged address and password keep working.
BOOST_AUTO_TEST_CASE(link_email_code_does_not_replace_an_email_that_came_meanwhile) {
    const int64_t tg = fresh_telegram_id();
    const std::string tma = tma_header(tg).substr(15);
    const std::string asked = fresh_link_email("asked");
    BOOST_REQUIRE_EQUAL(post_json("/api/cabinet/link/email", R"({"email":")" + asked + R"(","password":")" + kLinkPassword + R"("})", tma).status, 200);
    const std::string code = mailed_code(asked);
    const std::string merged = fresh_link_email("merged");
    exec("UPDATE users SET email = '" + merged + "', email_verified = true WHERE telegram_id = " + std::to_string(tg));
    const auto r = post_json("/api/cabinet/link/email/confirm", code_body(code), tma);
    BOOST_TEST(r.status == 409, r.body);
    BOOST_TEST(count("SELECT count(*) FROM users WHERE email = '" + merged + "' AND telegram_id = " + std::to_string(tg)) == 1);
}

BOOST_AUTO_TEST_SUITE_END()
