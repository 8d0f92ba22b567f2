// Web sessions (issue 7): the Argon2id wrapper with its concurrency cap, the MIME mail,
// the HTML escaping of templates, the canonical e-mail form and the sign-in delay. No I/O.
#include <boost/test/unit_test.hpp>

#include <sodium.h>

#include <chrono>
#include <thread>

#include "auth/passwords.hpp"
#include "auth/refresh_grace.hpp"
#include "auth/throttle.hpp"
#include "domain/email.hpp"
#include "errors.hpp"
#include "mail/smtp.hpp"
#include "mail/templates.hpp"
#include "util/strings.hpp"
#include "util/web_tokens.hpp"

using namespace cabinet;

namespace {
struct Sodium {
    Sodium() { BOOST_REQUIRE(sodium_init() >= 0); }
};
// libsodium's minimum memory keeps the tests fast; the code path is the same.
constexpr int64_t kOps = 1, kMem = 8192 * 1024;
}  // namespace

BOOST_FIXTURE_TEST_SUITE(web_auth_unit, Sodium)

BOOST_AUTO_TEST_CASE(password_hash_round_trip) {
    const PasswordHasher h(kOps, kMem, 2);
    const std::string stored = h.hash("correct horse");
    BOOST_TEST(stored.rfind("$argon2id$", 0) == 0);
    BOOST_TEST(stored.find("m=8192,t=1") != std::string::npos);
    BOOST_TEST(h.verify(stored, "correct horse"));
    BOOST_TEST(!h.verify(stored, "correct horsE"));
    BOOST_TEST(!h.verify("not a hash", "correct horse"));
    BOOST_TEST(h.hash("correct horse") != stored);  // salted
    BOOST_TEST(!h.needs_rehash(stored));
    const PasswordHasher stronger(kOps + 1, kMem, 2);
    BOOST_TEST(stronger.needs_rehash(stored));
    BOOST_TEST(stronger.verify(stored, "correct horse"));  // old hashes still verify
    h.verify_dummy("anything");  // must not throw
}

BOOST_AUTO_TEST_CASE(password_hashing_is_capped_and_busy_is_503) {
    // One slot, held by a slow hash; a second caller waits 50 ms, then gets 503.
    const PasswordHasher h(4, 64 * 1024 * 1024, 1, std::chrono::milliseconds(50));
    std::thread slow([&] { (void)h.hash("slow one"); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    int status = 200;
    std::string retry_after;
    try {
        (void)h.hash("second");
    } catch (const ApiError& e) {
        status = e.status();
        for (const auto& [k, v] : e.headers)
            if (k == "Retry-After") retry_after = v;
        BOOST_TEST(std::string(e.detail()) == "busy, try again");
    }
    slow.join();
    BOOST_TEST(status == 503);
    BOOST_TEST(retry_after == "1");
    BOOST_TEST(h.verify(h.hash("free again"), "free again"));  // the slot came back
}

BOOST_AUTO_TEST_CASE(opaque_tokens_and_their_hashes) {
    const std::string t = new_opaque_token();
    BOOST_TEST(t.size() == 43u);
    BOOST_TEST(t.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos);
    BOOST_TEST(new_opaque_token() != t);
    BOOST_TEST(opaque_token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

BOOST_AUTO_TEST_CASE(mime_multipart_alternative) {
    MailMessage m;
    m.from = "Cabinet <noreply@example.com>";
    m.to = "ann@example.com";
    m.subject = "Confirm your e-mail";
    m.text = "Hello\nline two\n";
    m.html = "<p>Hello</p>\n";
    const std::string mime = compose_mime(m, 1700000000, "id1@example.com", "BOUNDARY");
    const std::string expected =
        "From: Cabinet <noreply@example.com>\r\n"
        "To: ann@example.com\r\n"
        "Subject: Confirm your e-mail\r\n"
        "Date: Tue, 14 Nov 2023 22:13:20 +0000\r\n"
        "Message-ID: <id1@example.com>\r\n"
        "MIME-Version: 1.0\r\n"
        "Content-Type: multipart/alternative; boundary=\"BOUNDARY\"\r\n"
        "\r\n"
        "--BOUNDARY\r\n"
        "Content-Type: text/plain; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 7bit\r\n"
        "\r\n"
        "Hello\r\nline two\r\n\r\n"
        "--BOUNDARY\r\n"
        "Content-Type: text/html; charset=utf-8\r\n"
        "Content-Transfer-Encoding: 7bit\r\n"
        "\r\n"
        "<p>Hello</p>\r\n\r\n"
        "--BOUNDARY--\r\n";
    BOOST_TEST(mime == expected);
}

BOOST_AUTO_TEST_CASE(mime_encodes_non_ascii_and_refuses_header_injection) {
    MailMessage m;
    m.from = "noreply@example.com";
    m.to = "ann@example.com\r\nBcc: evil@example.com";
    m.subject = "Привет";
    m.text = "Привет";
    m.html = "<p>Привет</p>";
    const std::string mime = compose_mime(m, 0, "x@y", "B");
    BOOST_TEST(mime.find("Subject: =?UTF-8?B?0J/RgNC40LLQtdGC?=\r\n") != std::string::npos);
    BOOST_TEST(mime.find("Content-Transfer-Encoding: base64\r\n\r\n0J/RgNC40LLQtdGC\r\n") != std::string::npos);
    BOOST_TEST(mime.find("\r\nBcc:") == std::string::npos);
    BOOST_TEST(mime.find("Date: Thu, 01 Jan 1970 00:00:00 +0000\r\n") != std::string::npos);
    // The random form: a Message-ID at the sender's domain, distinct boundaries.
    const std::string a = compose_mime(m, 0), b = compose_mime(m, 0);
    BOOST_TEST(a.find("@example.com>\r\n") != std::string::npos);
    BOOST_TEST(a != b);
    BOOST_TEST(mail_address("Cabinet <noreply@example.com>") == "noreply@example.com");
    BOOST_TEST(mail_address(" noreply@example.com ") == "noreply@example.com");
}

BOOST_AUTO_TEST_CASE(templates_escape_html) {
    BOOST_TEST(html_escape(R"(<a href="x">&'</a>)") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
    const MailContent m = verification_mail("https://x.test/verify?token=a\"b<c&d", 86400, MailLanguage::en);
    BOOST_TEST(m.text.find("https://x.test/verify?token=a\"b<c&d") != std::string::npos);
    BOOST_TEST(m.html.find("a&quot;b&lt;c&amp;d") != std::string::npos);
    BOOST_TEST(m.html.find("a\"b<c") == std::string::npos);
    BOOST_TEST(m.text.find("24 hours") != std::string::npos);
}

// Mails in the account's language, durations written in it (Russian plurals included).
BOOST_AUTO_TEST_CASE(mails_speak_the_accounts_language) {
    BOOST_TEST((mail_language("ru") == MailLanguage::ru));
    BOOST_TEST((mail_language("en") == MailLanguage::en));
    BOOST_TEST((mail_language("") == MailLanguage::en));
    BOOST_TEST(duration_text(1800, MailLanguage::en) == "30 minutes");
    BOOST_TEST(duration_text(3600, MailLanguage::en) == "1 hour");
    BOOST_TEST(duration_text(86400, MailLanguage::en) == "24 hours");
    BOOST_TEST(duration_text(1800, MailLanguage::ru) == "30 минут");
    BOOST_TEST(duration_text(86400, MailLanguage::ru) == "24 часа");
    BOOST_TEST(duration_text(3600, MailLanguage::ru) == "1 час");
    BOOST_TEST(duration_text(900, MailLanguage::ru) == "15 минут");
    BOOST_TEST(duration_text(120, MailLanguage::ru) == "2 минуты");
    BOOST_TEST(duration_text(1260, MailLanguage::ru) == "21 минуту");
    const MailContent ru = password_reset_mail("https://x.test/reset?token=t", 1800, MailLanguage::ru);
    BOOST_TEST(ru.subject == "Сброс пароля");
    BOOST_TEST(ru.text.find("30 минут") != std::string::npos);
    BOOST_TEST(ru.html.find("https://x.test/reset?token=t") != std::string::npos);
    BOOST_TEST(password_reset_mail("https://x.test/reset?token=t", 1800, MailLanguage::en).subject == "Reset your password");
}

BOOST_AUTO_TEST_CASE(emails_are_canonical) {
    BOOST_TEST(normalize_email("  Ann@Example.COM ").value_or("") == "ann@example.com");
    for (const char* bad : {"", "ann", "ann@", "@example.com", "ann@example", "ann@@example.com", "a b@example.com",
                            "ann@example..com", "ann@example.com.", "<ann@example.com>", "ann@.example.com"})
        BOOST_TEST(!normalize_email(bad).has_value(), bad);
    BOOST_TEST(!normalize_email(std::string(65, 'a') + "@example.com").has_value());
    // Capitals beyond ASCII are lowered too: the users table holds lower(email) (a CHECK;
    // before, a 500).
    BOOST_TEST(normalize_email("Иван@Почта.РФ").value_or("") == "иван@почта.рф");
    BOOST_TEST(normalize_email("ÄRGER@Straße.DE").value_or("") == "ärger@straße.de");
    BOOST_TEST(cabinet::to_lower_utf8("A\xff\xc3Ω") == "a\xff\xc3ω");  // broken bytes kept as they are
}

// Each failure beyond the limit doubles the per-e-mail delay, up to a minute.
BOOST_AUTO_TEST_CASE(the_email_delay_doubles_up_to_a_minute) {
    BOOST_TEST(email_delay_s(9, 10) == 0);
    BOOST_TEST(email_delay_s(10, 10) == 1);
    BOOST_TEST(email_delay_s(13, 10) == 8);
    BOOST_TEST(email_delay_s(16, 10) == 60);
    BOOST_TEST(email_delay_s(100000, 10) == 60);
}

// The successor sealed for the refresh grace opens with the rotated token and nothing else.
BOOST_AUTO_TEST_CASE(a_sealed_successor_opens_only_with_its_rotated_token) {
    const std::string sealed = seal_successor("old-token", "new-token");
    BOOST_TEST(sealed.find("new-token") == std::string::npos);
    BOOST_TEST(open_successor("old-token", sealed).value_or("") == "new-token");
    BOOST_TEST(!open_successor("another-token", sealed));
    BOOST_TEST(!open_successor("old-token", ""));                   // none kept (the grace is over)
    BOOST_TEST(!open_successor("old-token", sealed.substr(0, 20)));  // damaged
    BOOST_TEST(seal_successor("old-token", "new-token") != sealed);  // a fresh nonce each time
}

BOOST_AUTO_TEST_SUITE_END()
