// OAuth (issue 7): PKCE, the authorize URL and each provider's profile shape. No I/O.
#include <boost/test/unit_test.hpp>

#include "auth/oauth.hpp"

using namespace cabinet;

BOOST_AUTO_TEST_SUITE(oauth_unit)

BOOST_AUTO_TEST_CASE(pkce_s256_matches_rfc7636) {
    // RFC 7636, appendix B.
    BOOST_TEST(oauth::code_challenge_s256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk") ==
               "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    const auto v = oauth::new_code_verifier();
    BOOST_TEST(v.size() == 43u);
    BOOST_TEST(v != oauth::new_code_verifier());
}

BOOST_AUTO_TEST_CASE(authorize_url_carries_the_parameters) {
    Settings s;
    s.web_cabinet_url = "https://shop.example/cabinet";
    s.vk_client_id = "51234";
    s.vk_authorize_url = "https://id.vk.com/authorize";
    const auto url = oauth::authorize_url(s, oauth::Provider::vk, "st", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk");
    BOOST_TEST(url == "https://id.vk.com/authorize?response_type=code&client_id=51234"
                      "&redirect_uri=https%3A%2F%2Fshop.example%2Fcabinet%2Foauth%2Fcallback&scope=email&state=st"
                      "&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256");
    s.yandex_authorize_url = "https://oauth.yandex.ru/authorize";
    const auto y = oauth::authorize_url(s, oauth::Provider::yandex, "st", "");
    BOOST_TEST(y.find("scope=login%3Aemail+login%3Ainfo") != std::string::npos, y);
    BOOST_TEST(y.find("code_challenge") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(profiles_per_provider) {
    const auto g = oauth::parse_profile(oauth::Provider::google,
        R"({"sub":"1090","name":"Ann B","email":"Ann@Gmail.com","email_verified":true})");
    BOOST_TEST(g.subject == "1090");
    BOOST_TEST(g.email == "Ann@Gmail.com");
    BOOST_TEST(g.email_verified);
    BOOST_TEST(g.display_name == "Ann B");
    BOOST_TEST(!oauth::parse_profile(oauth::Provider::google, R"({"sub":"1","email":"a@b.c","email_verified":false})").email_verified);

    const auto y = oauth::parse_profile(oauth::Provider::yandex,
        R"({"id":"77","login":"ann","default_email":"ann@yandex.ru","real_name":"Ann B"})");
    BOOST_TEST(y.subject == "77");
    BOOST_TEST(y.email_verified);
    BOOST_TEST(y.display_name == "Ann B");
    BOOST_TEST(!oauth::parse_profile(oauth::Provider::yandex, R"({"id":"78","login":"bo"})").email_verified);

    const auto v = oauth::parse_profile(oauth::Provider::vk,
        R"({"user":{"user_id":123456,"first_name":"Ann","last_name":"B","email":"ann@vk.com"}})");
    BOOST_TEST(v.subject == "123456");
    BOOST_TEST(v.email == "ann@vk.com");
    BOOST_TEST(!v.email_verified);
    BOOST_TEST(v.display_name == "Ann B");
    BOOST_TEST(oauth::parse_profile(oauth::Provider::vk, "not json").subject.empty());
}

BOOST_AUTO_TEST_SUITE_END()
