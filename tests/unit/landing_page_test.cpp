// The landing page's HTML (site/landing_page.hpp): what a visitor and a search engine read
// before any script runs, and that nothing from the owner's data can become markup.
#include <boost/test/unit_test.hpp>

#include "site/landing_page.hpp"

using namespace cabinet;

namespace {

LandingPageInput shop() {
    LandingPageInput in;
    in.theme.title = "North VPN";
    in.theme.template_id = "c";
    in.theme.accent_color = "#e11d48";
    in.landing.headline = "Fast VPN for every device";
    in.landing.subheadline = "Servers in 12 countries, set up in a minute.";
    in.landing.features = {{"No logs", "We keep nothing."}};
    in.landing.faq = {{"Can I cancel?", "Any time."}};
    in.landing.cta_target = "web";
    Plan p;
    p.name = "Standard";
    p.description = "For one person";
    p.device_limit = 3;
    p.durations = {{30, 1, 29900}, {90, 3, 79900}};
    in.plans = {p};
    in.currency = "RUB";
    in.payment_methods = {"yookassa", "stars"};
    in.bot_username = "north_vpn_bot";
    in.cabinet_url = "https://north.example/cabinet";
    in.site_url = "https://north.example";
    return in;
}

bool has(const std::string& page, const std::string& part) { return page.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(landing_page)

BOOST_AUTO_TEST_CASE(content_title_and_open_graph_are_in_the_html) {
    const std::string page = render_landing_page(shop());
    BOOST_TEST(has(page, "<title>North VPN — Fast VPN for every device</title>"));
    BOOST_TEST(has(page, "<meta name=\"description\" content=\"Servers in 12 countries, set up in a minute.\">"));
    BOOST_TEST(has(page, "<meta property=\"og:title\" content=\"North VPN — Fast VPN for every device\">"));
    BOOST_TEST(has(page, "<meta property=\"og:url\" content=\"https://north.example/\">"));
    BOOST_TEST(has(page, "<link rel=\"canonical\" href=\"https://north.example/\">"));
    BOOST_TEST(has(page, "<h1>Fast VPN for every device</h1>"));
    BOOST_TEST(has(page, "<h3>Standard</h3>"));
    BOOST_TEST(has(page, "<strong>299\u00a0₽</strong>"));
    BOOST_TEST(has(page, "<span>90 days</span> <strong>799\u00a0₽</strong>"));
    BOOST_TEST(has(page, "Bank card · Telegram Stars"));
    BOOST_TEST(has(page, "<summary>Can I cancel?</summary>"));
    BOOST_TEST(has(page, "data-template=\"c\" data-accent=\"#e11d48\""));
    BOOST_TEST(has(page, "/static/__RELEASE__/themes/c.css"));
    BOOST_TEST(!has(page, "noindex"));
}

BOOST_AUTO_TEST_CASE(the_call_to_action_follows_cta_target) {
    auto in = shop();
    std::string page = render_landing_page(in);
    BOOST_TEST(has(page, "<a class=\"btn btn-primary\" href=\"https://north.example/cabinet/\">Open the cabinet</a>"));
    in.landing.cta_target = "bot";
    page = render_landing_page(in);
    BOOST_TEST(has(page, "<a class=\"btn btn-primary\" href=\"https://t.me/north_vpn_bot\">Open in Telegram</a>"));
    in.landing.cta_target = "web";
    in.cabinet_url.clear();  // the web cabinet is off: never a link into it
    page = render_landing_page(in);
    BOOST_TEST(has(page, "<a class=\"btn btn-primary\" href=\"https://t.me/north_vpn_bot\">"));
    BOOST_TEST(!has(page, "/cabinet/"));
}

BOOST_AUTO_TEST_CASE(owner_text_is_never_markup) {
    auto in = shop();
    in.theme.title = "<script>alert(1)</script>";
    in.landing.headline = "\"><img src=x onerror=alert(1)>";
    in.landing.faq = {{"<b>q</b>", "a & b"}};
    in.plans[0].name = "<i>Plan</i>";
    in.theme.template_id = "x\" onload=\"";
    in.theme.accent_color = "red\" onclick=\"x";
    const std::string page = render_landing_page(in);
    BOOST_TEST(!has(page, "<script>alert"));
    BOOST_TEST(!has(page, "<img"));
    BOOST_TEST(!has(page, "<b>q"));
    BOOST_TEST(!has(page, "<i>Plan"));
    BOOST_TEST(!has(page, "onload"));
    BOOST_TEST(!has(page, "onclick"));
    BOOST_TEST(has(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    BOOST_TEST(has(page, "a &amp; b"));
    BOOST_TEST(has(page, "data-template=\"a\""));  // an unknown template falls back to the default
}

BOOST_AUTO_TEST_CASE(a_switched_off_landing_is_minimal_and_not_indexed) {
    auto in = shop();
    in.landing.enabled = false;
    const std::string page = render_landing_page(in);
    BOOST_TEST(has(page, "<meta name=\"robots\" content=\"noindex\">"));
    BOOST_TEST(has(page, "<h1>North VPN</h1>"));
    BOOST_TEST(has(page, "https://t.me/north_vpn_bot"));
    BOOST_TEST(!has(page, "Standard"));
    BOOST_TEST(!has(page, "Fast VPN"));
}

BOOST_AUTO_TEST_CASE(labels_follow_the_language_of_the_owner_copy) {
    auto in = shop();
    in.landing.headline = "Быстрый VPN для всех устройств";
    in.landing.subheadline = "Серверы в 12 странах";
    const std::string page = render_landing_page(in);
    BOOST_TEST(has(page, "<html lang=\"ru\""));
    BOOST_TEST(has(page, "<span>30 дней</span>"));
    BOOST_TEST(has(page, ">Тарифы</h2>"));
    BOOST_TEST(landing_language(in.landing) == "ru");
    in.landing.headline = "Fast VPN";
    in.landing.subheadline = "";
    BOOST_TEST(landing_language(in.landing) == "en");
}

BOOST_AUTO_TEST_CASE(money_is_written_the_way_a_buyer_reads_it) {
    BOOST_TEST(landing_money(29900, "RUB", "ru") == "299\u00a0₽");
    BOOST_TEST(landing_money(1299000, "RUB", "ru") == "12\u00a0990\u00a0₽");
    BOOST_TEST(landing_money(1299000, "RUB", "en") == "12,990\u00a0₽");
    BOOST_TEST(landing_money(499, "USD", "en") == "4.99\u00a0$");
    BOOST_TEST(landing_money(1250, "EUR", "ru") == "12,50\u00a0€");
    BOOST_TEST(landing_money(1205, "KZT", "en") == "12.05\u00a0KZT");
}

BOOST_AUTO_TEST_SUITE_END()
