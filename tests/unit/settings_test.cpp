#include <boost/test/unit_test.hpp>

#include <fstream>
#include <map>
#include <sstream>

#include "config/settings.hpp"
#include "errors.hpp"

using namespace cabinet;

namespace {
std::map<std::string, std::string> base() {
    return {{"BOT_TOKEN", "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, {"JWT_SECRET", std::string(32, 'x')}, {"BOT_USERNAME", "shop_vpn_bot"}};
}
Settings load(const std::map<std::string, std::string>& env) {
    return load_settings([&](const char* n) -> const char* {
        auto it = env.find(n);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}
std::string error_of(std::map<std::string, std::string> env) {
    try {
        load(env);
        return "";
    } catch (const ConfigError& e) {
        return e.what();
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(settings)

// STARS_RATE_RUB as the original's clients read it: an integer of minor units per star; our
// old decimal format still works, read as hundredths, with a notice of what to write.
BOOST_AUTO_TEST_CASE(stars_rate_is_minor_units_per_star) {
    auto env = base();
    BOOST_TEST(load(env).stars_rate_minor == 130);  // the original's default, 1.30 a star
    BOOST_TEST(load(env).notices.empty());
    env["STARS_RATE_RUB"] = "130";
    BOOST_TEST(load(env).stars_rate_minor == 130);
    env["STARS_RATE_RUB"] = "1.8";
    const Settings old = load(env);
    BOOST_TEST(old.stars_rate_minor == 180);
    BOOST_REQUIRE(old.notices.size() == 1u);
    BOOST_TEST(old.notices[0].find("write STARS_RATE_RUB=180") != std::string::npos);
    for (const char* bad : {"0", "-5", "1,8", "abc", "1.234"}) {
        env["STARS_RATE_RUB"] = bad;
        BOOST_TEST(error_of(env).find("STARS_RATE_RUB") == 0u, bad);
    }
}

BOOST_AUTO_TEST_CASE(defaults_and_overrides) {
    auto env = base();
    env["STARS_RATE_RUB"] = "179";
    env["ADMIN_IDS"] = "1, 2,3";
    env["TRIAL_ENABLED"] = "off";
    const Settings s = load(env);
    BOOST_TEST(s.stars_rate_minor == 179);
    BOOST_TEST(s.admin_ids.size() == 3u);
    BOOST_TEST(!s.trial_enabled);
    BOOST_TEST(s.init_data_max_age_s == 86400);
}

BOOST_AUTO_TEST_CASE(invalid_values_name_the_variable) {
    auto env = base();
    env["TRIAL_DURATION_DAYS"] = "three";
    BOOST_TEST(error_of(env).find("TRIAL_DURATION_DAYS") == 0u);
    env = base();
    env["SALES_MODE"] = "auction";
    BOOST_TEST(error_of(env).find("SALES_MODE") == 0u);
    env = base();
    env.erase("BOT_TOKEN");
    BOOST_TEST(error_of(env).find("BOT_TOKEN") == 0u);
    env = base();
    env["JWT_SECRET"] = "short";
    BOOST_TEST(error_of(env).find("JWT_SECRET") == 0u);
    env = base();
    env["STARS_RATE_RUB"] = "1,8";
    BOOST_TEST(error_of(env).find("STARS_RATE_RUB") == 0u);
    env = base();
    env.erase("BOT_USERNAME");  // deep links would be t.me/?start=...
    BOOST_TEST(error_of(env).find("BOT_USERNAME") == 0u);
    env["BOT_USERNAME"] = "shop vpn";
    BOOST_TEST(error_of(env).find("BOT_USERNAME") == 0u);
    env["BOT_USERNAME"] = "@Shop_VPN_bot";
    BOOST_TEST(load(env).bot_username == "Shop_VPN_bot");
}

// Guessable secrets are refused at start-up (issue 13).
BOOST_AUTO_TEST_CASE(short_secrets_are_refused) {
    auto env = base();
    env["BACKUP_ENCRYPTION_PASSWORD"] = "fifteen-chars!!";
    BOOST_TEST(error_of(env).find("BACKUP_ENCRYPTION_PASSWORD: at least 16") == 0u);
    env["BACKUP_ENCRYPTION_PASSWORD"] = "\u043f\u0430\u0440\u043e\u043b\u044c-\u043f\u0430\u0440\u043e\u043b\u044c!!!";  // 16 letters, 30 bytes
    BOOST_TEST(error_of(env) == "");
    env["BOT_WEBHOOK_SECRET"] = std::string(31, 's');
    BOOST_TEST(error_of(env).find("BOT_WEBHOOK_SECRET") == 0u);
    env["BOT_WEBHOOK_SECRET"] = std::string(32, 's');
    BOOST_TEST(error_of(env) == "");
}

BOOST_AUTO_TEST_CASE(web_cabinet_settings) {
    auto env = base();
    env["WEB_CABINET_ENABLED"] = "true";
    BOOST_TEST(error_of(env).find("WEB_CABINET_URL") == 0u);  // links in mails need it
    env["WEB_CABINET_URL"] = "https://shop.example/cabinet/";
    const Settings s = load(env);
    BOOST_TEST(s.web_cabinet_url == "https://shop.example/cabinet");
    BOOST_TEST(s.password_opslimit == 2);  // libsodium's INTERACTIVE
    BOOST_TEST(s.password_memlimit == 67108864);
    BOOST_TEST(s.password_hash_concurrency == 2);
    env["SMTP_URL"] = "http://mail.example";
    BOOST_TEST(error_of(env).find("SMTP_URL") == 0u);
    env["SMTP_URL"] = "smtps://mail.example:465";
    env["PASSWORD_MEMLIMIT"] = "4096";  // below libsodium's minimum
    BOOST_TEST(error_of(env).find("PASSWORD_MEMLIMIT") == 0u);
}

BOOST_AUTO_TEST_CASE(report_topics_web_cabinet_url_and_oauth_providers) {
    auto env = base();
    env["REPORT_TOPIC_TICKETS"] = "78";
    BOOST_TEST(load(env).report_topic_tickets == "78");
    env["REPORT_TOPIC_TICKETS"] = "tickets";
    BOOST_TEST(error_of(env).find("REPORT_TOPIC_TICKETS") == 0u);
    env = base();
    env["WEB_CABINET_URL"] = "cabinet.example.com";
    BOOST_TEST(error_of(env).find("WEB_CABINET_URL") == 0u);

    env = base();
    env["GOOGLE_CLIENT_ID"] = "g";
    env["GOOGLE_CLIENT_SECRET"] = "gs";
    env["YANDEX_CLIENT_ID"] = "y";  // no secret: off
    env["VK_CLIENT_ID"] = "v";
    env["VK_CLIENT_SECRET"] = "vs";
    BOOST_TEST(enabled_oauth_providers(load(env)).empty());  // WEB_CABINET_ENABLED is off
    env["WEB_CABINET_ENABLED"] = "true";
    env["WEB_CABINET_URL"] = "https://shop.example/cabinet";
    BOOST_TEST(enabled_oauth_providers(load(env)) == (std::vector<std::string>{"google", "vk"}));
}

// The documented env file lists exactly the variables the code reads.
// nginx gets METRICS_ALLOW as `allow` lines: only addresses and networks may pass.
BOOST_AUTO_TEST_CASE(metrics_allow_takes_addresses_and_networks_only) {
    auto env = base();
    env["METRICS_ALLOW"] = "10.0.0.0/8, 192.168.1.7 ,fd00::/8";
    BOOST_TEST(load(env).metrics_allow == (std::vector<std::string>{"10.0.0.0/8", "192.168.1.7", "fd00::/8"}));
    for (const char* bad : {"10.0.0.0/33", "fd00::/129", "prometheus.example.com", "10.0.0.0/8; allow all", "all"}) {
        env["METRICS_ALLOW"] = bad;
        BOOST_TEST(error_of(env).find("METRICS_ALLOW") != std::string::npos, bad);
    }
    env = base();
    env["LOG_FORMAT"] = "xml";
    BOOST_TEST(error_of(env).find("LOG_FORMAT") != std::string::npos);
    BOOST_TEST(load(base()).log_format == "text");
}

BOOST_AUTO_TEST_CASE(env_example_is_current) {
    std::ifstream in(FIXTURES_DIR "/../../systemd/cabinet.env.example");
    BOOST_REQUIRE(in);
    std::stringstream ss;
    ss << in.rdbuf();
    BOOST_TEST(ss.str() == settings_env_example());
}

BOOST_AUTO_TEST_SUITE_END()
