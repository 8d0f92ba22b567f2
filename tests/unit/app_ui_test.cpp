// The owner's ui (domain/app_ui.hpp, SPEC-GAPS "app.ui"): what is stored is only what the
// pages understand; unknown keys and bad values are dropped.
#include <boost/test/unit_test.hpp>

#include "domain/app_ui.hpp"
#include "util/json.hpp"

using namespace cabinet;

namespace {
rapidjson::Document cleaned(const std::string& json) {
    rapidjson::Document d;
    d.Parse(clean_app_ui(json).c_str());
    return d;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(app_ui)

BOOST_AUTO_TEST_CASE(scale_is_clamped_and_sections_keep_known_names_once) {
    const auto d = cleaned(R"({"scale": 300, "sections": ["plans", "status", "plans", "evil", 3], "hidden": ["proxy", "x"],
                             "whatever": {"a": 1}})");
    BOOST_TEST(d["scale"].GetInt() == 115);
    BOOST_TEST(d["sections"].Size() == 2u);
    BOOST_TEST(std::string(d["sections"][0].GetString()) == "plans");
    BOOST_TEST(std::string(d["sections"][1].GetString()) == "status");
    BOOST_TEST(d["hidden"].Size() == 1u);
    BOOST_TEST(!d.HasMember("whatever"));
    BOOST_TEST(!cleaned(R"({"show_support": false})")["show_support"].GetBool());
    BOOST_TEST(!cleaned(R"({"show_support": "no"})").HasMember("show_support"));
    BOOST_TEST(cleaned(R"({"scale": 10})")["scale"].GetInt() == 85);
}

BOOST_AUTO_TEST_CASE(buttons_keep_short_texts_and_real_colours) {
    const auto d = cleaned(R"({"buttons": {"renew": {"text": "Extend", "color": "#f00"},
                                           "trial": {"text": "a very long text that is much longer than thirty-two", "color": "red"},
                                           "hack": {"text": "x"}}})");
    BOOST_TEST(std::string(d["buttons"]["renew"]["text"].GetString()) == "Extend");
    BOOST_TEST(std::string(d["buttons"]["renew"]["color"].GetString()) == "#f00");
    BOOST_TEST(std::string(d["buttons"]["trial"]["text"].GetString()).empty());
    BOOST_TEST(d["buttons"]["trial"]["color"].IsNull());
    BOOST_TEST(!d["buttons"].HasMember("hack"));
}

BOOST_AUTO_TEST_CASE(links_other_than_web_telegram_and_mail_are_dropped) {
    const auto d = cleaned(R"J({"blocks": [
        {"title": "<img src=x onerror=alert(1)>", "url": "javascript:alert(1)", "screen": "nowhere"},
        {"text": "Mail us", "url": "mailto:help@example.com", "screen": "account", "id": "bad id!"},
        {"icon": "only an icon"}],
      "buttons_extra": [{"label": "Go", "url": "data:text/html,x"}, {"label": "Chat", "url": "tg://resolve?domain=shop", "style": "loud"}]})J");
    BOOST_REQUIRE(d["blocks"].Size() == 2u);
    // Markup is kept as text (the pages show it as text); the link is gone, the screen defaults.
    BOOST_TEST(std::string(d["blocks"][0]["title"].GetString()) == "<img src=x onerror=alert(1)>");
    BOOST_TEST(d["blocks"][0]["url"].IsNull());
    BOOST_TEST(std::string(d["blocks"][0]["screen"].GetString()) == "home");
    BOOST_TEST(std::string(d["blocks"][1]["url"].GetString()) == "mailto:help@example.com");
    BOOST_TEST(std::string(d["blocks"][1]["id"].GetString()) == "block2");
    BOOST_REQUIRE(d["buttons_extra"].Size() == 1u);
    BOOST_TEST(std::string(d["buttons_extra"][0]["label"].GetString()) == "Chat");
    BOOST_TEST(std::string(d["buttons_extra"][0]["style"].GetString()) == "primary");
}

BOOST_AUTO_TEST_CASE(at_most_sixteen_blocks_and_never_the_landing) {
    std::string blocks;
    for (int i = 0; i < 20; ++i) blocks += std::string(i ? "," : "") + R"({"title": "b)" + std::to_string(i) + R"("})";
    const auto d = cleaned(R"({"landing": {"headline": "x"}, "blocks": [)" + blocks + "]}");
    BOOST_TEST(d["blocks"].Size() == 16u);
    BOOST_TEST(!d.HasMember("landing"));
    BOOST_CHECK_THROW(clean_app_ui("[1, 2]"), std::invalid_argument);
    BOOST_CHECK_THROW(clean_app_ui("{"), std::invalid_argument);
    BOOST_TEST(app_ui_without_landing(R"({"landing": {"a": 1}, "scale": 90})") == R"({"scale":90})");
}

BOOST_AUTO_TEST_SUITE_END()
