// GET /api/cabinet/me and GET /api/cabinet/config: every SPEC field, and the settings that
// change them.
#include <boost/test/unit_test.hpp>

#include <regex>

#include "support.hpp"

using namespace it;

namespace {
bool iso_utc(const rapidjson::Value& v) {
    static const std::regex re(R"(^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$)");
    return v.IsString() && std::regex_match(v.GetString(), re);
}

// The demo user's profile as the pool serves it right now.
rapidjson::Document demo_me() {
    cabinet::TelegramUser u;
    u.id = 100000001;
    u.first_name = "Demo";
    u.username = "demo";
    u.language_code = "en";
    const auto r = http("GET", "/api/cabinet/me", {tma_header_for(u)});
    BOOST_REQUIRE(r.status == 200);
    return r.json();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(me)

BOOST_AUTO_TEST_CASE(demo_user_has_every_field) {
    const auto me = demo_me();
    const auto& u = me["user"];
    BOOST_TEST(u["id"].IsInt64());
    BOOST_TEST(std::string(u["first_name"].GetString()) == "Demo");
    BOOST_TEST(std::string(u["username"].GetString()) == "demo");
    BOOST_TEST(std::string(u["language"].GetString()) == "en");
    BOOST_TEST(std::string(u["currency"].GetString()) == "RUB");
    BOOST_TEST(u["balance_minor"].GetInt64() == 50000);
    BOOST_TEST(std::string(u["referral_code"].GetString()) == "DEMO2026");
    BOOST_TEST(u["personal_discount_pct"].IsInt());
    BOOST_TEST(u["is_trial_available"].GetBool() == true);

    const auto& a = me["app"];
    BOOST_TEST(std::regex_match(a["template"].GetString(), std::regex("^[a-h]$")));
    BOOST_TEST(std::string(a["title"].GetString()) == "Demo VPN");
    BOOST_TEST(a["greeting"].IsString());
    BOOST_TEST(std::regex_match(a["accent_color"].GetString(), std::regex("^#[0-9a-fA-F]{6}$")));
    BOOST_TEST(a["bot_username"].IsString());
    BOOST_TEST((a["mtproto_proxy"].IsNull() || a["mtproto_proxy"].IsString()));
    BOOST_TEST(a["ui"].IsObject());
    BOOST_TEST(a["payment_methods"].IsArray());
    BOOST_TEST(a["balance_enabled"].IsBool());
    BOOST_TEST(a["hide_subscription_link"].GetBool() == false);
    BOOST_TEST(a["show_traffic_usage"].IsBool());
    BOOST_TEST(std::string(a["sales_mode"].GetString()) == "plans");

    const auto& s = me["subscription"];
    BOOST_TEST(std::string(s["status"].GetString()) == "active");
    BOOST_TEST(s["is_trial"].GetBool() == false);
    BOOST_TEST(std::string(s["plan_name"].GetString()) == "Standard");
    BOOST_TEST(iso_utc(s["start_at"]));
    BOOST_TEST(iso_utc(s["expire_at"]));
    BOOST_TEST(s["device_limit"].GetInt() == 3);
    BOOST_TEST(s["traffic"]["used_bytes"].GetInt64() == 1073741824);
    BOOST_TEST(s["traffic"]["limit_bytes"].GetInt64() == 0);
    BOOST_TEST(s["traffic"]["unlimited"].GetBool() == true);
    BOOST_TEST(std::string(s["subscription_url"].GetString()).find("/sub/") != std::string::npos);
    BOOST_TEST(s["crypto_link"].IsString());
    BOOST_TEST(s["autopay_enabled"].IsBool());
}

BOOST_AUTO_TEST_CASE(expired_subscription_shows_expired) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    exec("INSERT INTO subscriptions (user_id, status, plan_snapshot, start_at, expire_at)"
                         " SELECT id, 'active', '{\"name\":\"Old\"}', now() - interval '40 days', now() - interval '10 days'"
                         " FROM users WHERE telegram_id = " + std::to_string(tg));
    const auto me = http("GET", "/api/cabinet/me", {tma_header(tg)}).json();
    BOOST_TEST(std::string(me["subscription"]["status"].GetString()) == "expired");
    BOOST_TEST(std::string(me["subscription"]["plan_name"].GetString()) == "Old");
}

BOOST_AUTO_TEST_CASE(settings_hide_link_and_disable_trial) {
    PoolWith pool("HIDE_SUBSCRIPTION_LINK=true TRIAL_ENABLED=false SALES_MODE=constructor YOOKASSA_ENABLED=true");
    const auto me = demo_me();
    BOOST_TEST(me["subscription"]["subscription_url"].IsNull());
    BOOST_TEST(me["app"]["hide_subscription_link"].GetBool() == true);
    BOOST_TEST(me["user"]["is_trial_available"].GetBool() == false);
    BOOST_TEST(std::string(me["app"]["sales_mode"].GetString()) == "constructor");
    BOOST_TEST(std::string(me["app"]["payment_methods"][0]["id"].GetString()) == "yookassa");
}

BOOST_AUTO_TEST_CASE(trial_used_is_not_available) {
    const int64_t tg = fresh_telegram_id();
    BOOST_REQUIRE(http("GET", "/api/cabinet/me", {tma_header(tg)}).status == 200);
    exec("UPDATE users SET trial_used = true WHERE telegram_id = " + std::to_string(tg));
    BOOST_TEST(http("GET", "/api/cabinet/me", {tma_header(tg)}).json()["user"]["is_trial_available"].GetBool() == false);
}

BOOST_AUTO_TEST_CASE(public_config_needs_no_credentials) {
    const auto r = http("GET", "/api/cabinet/config");
    BOOST_REQUIRE(r.status == 200);
    const auto c = r.json();
    BOOST_TEST(std::string(c["title"].GetString()) == "Demo VPN");
    BOOST_TEST(c["template"].IsString());
    BOOST_TEST(c["accent_color"].IsString());
    BOOST_TEST(iso_utc(c["published_at"]));
    BOOST_TEST(c["oauth_providers"].IsArray());
}

BOOST_AUTO_TEST_SUITE_END()
