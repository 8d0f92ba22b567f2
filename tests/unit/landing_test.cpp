// domain/landing: the landing copy read from app_config.ui with per-field defaults, and
// the checks of `cabinetctl config set`.
#include <boost/test/unit_test.hpp>

#include "domain/landing.hpp"

using namespace cabinet;

namespace {
std::string config_change_refusal(const std::string& key, const std::string& value) {
    try {
        parse_config_change(key, value);
        return "";
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(landing)

BOOST_AUTO_TEST_CASE(defaults_fill_what_is_absent_or_malformed) {
    const Landing empty = landing_from_ui("{}", true);
    BOOST_TEST(empty.enabled);
    BOOST_TEST(!empty.headline.empty());
    BOOST_TEST(!empty.features.empty());
    BOOST_TEST(!empty.faq.empty());
    BOOST_TEST(empty.cta_target == "web");
    BOOST_TEST(landing_from_ui("{}", false).cta_target == "bot");
    BOOST_TEST(landing_from_ui("not json", false).headline == empty.headline);

    const Landing l = landing_from_ui(
        R"({"landing": {"enabled": false, "headline": "Hi", "features": [{"title": 1}], "faq": [{"q": "Q", "a": "A"}],
            "cta_target": "web"}})",
        false);
    BOOST_TEST(!l.enabled);
    BOOST_TEST(l.headline == "Hi");
    BOOST_TEST(l.features.size() == empty.features.size());  // malformed: the default
    BOOST_TEST_REQUIRE(l.faq.size() == 1u);
    BOOST_TEST(l.faq[0].a == "A");
    BOOST_TEST(l.cta_target == "bot");  // "web" is never offered while the web cabinet is off
}

BOOST_AUTO_TEST_CASE(config_set_values_are_checked) {
    BOOST_TEST(parse_config_change("template", "c").column == "template");
    BOOST_TEST(parse_config_change("landing.headline", "Say \"hi\"").value == R"("Say \"hi\"")");
    BOOST_TEST(parse_config_change("landing.headline", "x").landing_key == "headline");
    BOOST_TEST(parse_config_change("landing.enabled", "false").value == "false");
    BOOST_TEST(parse_config_change("landing.faq", R"([ {"a": "A", "q": "Q"} ])").value == R"([{"q":"Q","a":"A"}])");
    BOOST_TEST(parse_config_change("landing.features", "[]").value == "[]");

    BOOST_TEST(config_change_refusal("template", "i") != "");
    BOOST_TEST(config_change_refusal("accent_color", "#12345") != "");
    BOOST_TEST(config_change_refusal("title", "  ") != "");
    BOOST_TEST(config_change_refusal("landing.cta_target", "site") != "");
    BOOST_TEST(config_change_refusal("landing.features", R"([{"title": "t"}])").find("landing.features[0]") != std::string::npos);
    BOOST_TEST(config_change_refusal("landing.faq", R"({"q": "Q", "a": "A"})").find("array") != std::string::npos);
    BOOST_TEST(config_change_refusal("landing.faq", "[").find("JSON") != std::string::npos);
    // What PostgreSQL's jsonb refuses is refused here, with a reason (it was a 500).
    BOOST_TEST(config_change_refusal("landing.faq", R"([{"q": "\u0000", "a": "A"}])").find("JSON") != std::string::npos);
    BOOST_TEST(config_change_refusal("landing.features", R"([{"title": "\udc00", "text": "t"}])").find("JSON") != std::string::npos);
    BOOST_TEST(config_change_refusal("nope", "x").find("unknown key") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
