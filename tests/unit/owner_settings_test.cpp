// Owner-level settings (config/owner_settings.hpp): a stored value is checked and read by
// the same parser as the env file; infrastructure stays in the env file.
#include <boost/test/unit_test.hpp>

#include <map>

#include "config/owner_settings.hpp"
#include "errors.hpp"

using namespace cabinet;

namespace {
Settings env_settings() {
    const std::map<std::string, std::string> env = {
        {"BOT_TOKEN", "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ"}, {"JWT_SECRET", std::string(32, 'x')}, {"BOT_USERNAME", "shop_vpn_bot"}};
    return load_settings([&](const char* n) -> const char* {
        auto it = env.find(n);
        return it == env.end() ? nullptr : it->second.c_str();
    });
}
std::string owner_value_refusal(const std::string& name, const std::string& value) {
    try {
        check_owner_value(name, value);
        return "";
    } catch (const ConfigError& e) {
        return e.what();
    }
}
}  // namespace

BOOST_AUTO_TEST_SUITE(owner_settings)

// The shop's offer and its gateway keys are the owner's (issue 47: payments are set up in
// the owner's cabinet); a key is a secret there (written, never shown back). Where the
// service's own traffic goes (API bases, the database, Redis) and how it signs (bot token,
// JWT) stay in the env file.
BOOST_AUTO_TEST_CASE(the_shop_offer_is_owner_level_and_its_keys_are_secrets) {
    for (const char* name : {"TRIAL_ENABLED", "TRIAL_DURATION_DAYS", "STARS_RATE_RUB", "YOOKASSA_ENABLED", "CRYPTOBOT_ENABLED",
                             "BALANCE_ENABLED", "SALES_MODE", "MAINTENANCE_MESSAGE", "CONNECTION_APPS", "REFERRAL_PERCENT",
                             "YOOKASSA_SHOP_ID", "YOOKASSA_SECRET_KEY", "CRYPTOBOT_TOKEN", "SUPPORT_IDS", "VIEWER_IDS"})
        BOOST_TEST((find_setting_spec(name) && find_setting_spec(name)->level == SettingLevel::owner), name);
    for (const char* name : {"BOT_TOKEN", "JWT_SECRET", "DATABASE_URL", "REDIS_URL", "YOOKASSA_API_BASE", "CRYPTOBOT_API_BASE",
                             "TELEGRAM_API_BASE", "ADMIN_IDS", "BACKUP_ENCRYPTION_PASSWORD", "SMTP_PASSWORD"})
        BOOST_TEST((find_setting_spec(name) && find_setting_spec(name)->level == SettingLevel::infrastructure), name);
    for (const auto& spec : setting_specs()) {
        if (spec.level != SettingLevel::owner) continue;
        const std::string n(spec.name);
        const bool looks_secret = n.find("SECRET") != std::string::npos || n.find("TOKEN") != std::string::npos ||
                                  n.find("PASSWORD") != std::string::npos;
        BOOST_TEST((!looks_secret || is_secret_setting(n)), n);
        const bool routes_traffic = n.find("API_BASE") != std::string::npos || n.find("_URL") != std::string::npos;
        BOOST_TEST((!routes_traffic || n == "YOOKASSA_RETURN_URL"), n);
    }
}

BOOST_AUTO_TEST_CASE(a_value_is_refused_with_the_parsers_message) {
    BOOST_TEST(owner_value_refusal("TRIAL_DURATION_DAYS", "7") == "");
    BOOST_TEST(owner_value_refusal("TRIAL_DURATION_DAYS", "0") == "TRIAL_DURATION_DAYS: must be an integer between 1 and 365 (got \"0\")");
    BOOST_TEST(owner_value_refusal("SALES_MODE", "auction") == "SALES_MODE: must be one of: plans, constructor (got \"auction\")");
    BOOST_TEST(owner_value_refusal("CONNECTION_APPS", "happ,telegram") == "CONNECTION_APPS: must be a comma-separated list of: happ, v2raytun, hiddify, streisand (got \"happ,telegram\")");
    BOOST_TEST(owner_value_refusal("JWT_SECRET", std::string(40, 'y')).find("infrastructure") != std::string::npos);
    BOOST_TEST(owner_value_refusal("NO_SUCH", "1").find("no such setting") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(stored_values_override_the_env_and_a_broken_one_is_skipped) {
    const Settings env = env_settings();
    const Settings s = with_owner_values(env, {{"STARS_RATE_RUB", "200"},
                                               {"TRIAL_ENABLED", "off"},
                                               {"TRIAL_DEVICE_LIMIT", "1000"},  // out of range: skipped
                                               {"JWT_SECRET", std::string(40, 'z')},  // not owner-level: skipped
                                               {"CONNECTION_APPS", "hiddify"}});
    BOOST_TEST(s.stars_rate_minor == 200);
    BOOST_TEST(!s.trial_enabled);
    BOOST_TEST(s.trial_device_limit == env.trial_device_limit);
    BOOST_TEST(s.jwt_secret == env.jwt_secret);
    BOOST_TEST(s.connection_apps == std::vector<std::string>{"hiddify"});
    BOOST_TEST(s.notices.size() == env.notices.size() + 2);
    BOOST_TEST(env.trial_enabled);  // the env settings themselves are untouched
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(owner_settings_screen)

// The Settings screen groups every owner-level setting by subject: a new one without a
// group would be listed nowhere.
BOOST_AUTO_TEST_CASE(every_owner_setting_has_a_group) {
    for (const SettingSpec* spec : owner_setting_specs())
        BOOST_CHECK_MESSAGE(!owner_setting_group(spec->name).empty(), spec->name << " has no group");
}

// What the screen says is accepted comes from the parser itself.
BOOST_AUTO_TEST_CASE(the_valid_values_are_the_parsers_words) {
    BOOST_TEST(setting_valid_values(owner_setting_spec("TRIAL_DURATION_DAYS")) == "must be an integer between 1 and 365");
    BOOST_TEST(setting_valid_values(owner_setting_spec("TRIAL_ENABLED")) == "expected true or false");
    BOOST_TEST(setting_valid_values(owner_setting_spec("SALES_MODE")) == "must be one of: plans, constructor");
    BOOST_TEST(setting_valid_values(owner_setting_spec("MAINTENANCE_MESSAGE")) == "any text");
    BOOST_TEST(setting_valid_values(owner_setting_spec("CONNECTION_APPS")) ==
               "must be a comma-separated list of: happ, v2raytun, hiddify, streisand");
}

BOOST_AUTO_TEST_CASE(tokens_keys_and_passwords_are_secrets) {
    BOOST_TEST(is_secret_setting("YOOKASSA_SECRET_KEY"));
    BOOST_TEST(is_secret_setting("CRYPTOBOT_TOKEN"));
    BOOST_TEST(is_secret_setting("SMTP_PASSWORD"));
    BOOST_TEST(!is_secret_setting("YOOKASSA_SHOP_ID"));
    BOOST_TEST(!is_secret_setting("TRIAL_PRICE"));
}

BOOST_AUTO_TEST_CASE(a_time_zone_is_a_known_zone_name) {
    BOOST_TEST(owner_value_refusal("SHOP_TIMEZONE", "Europe/Moscow").empty());
    BOOST_TEST(owner_value_refusal("SHOP_TIMEZONE", "UTC").empty());
    BOOST_TEST(!owner_value_refusal("SHOP_TIMEZONE", "../../etc/passwd").empty());
    BOOST_TEST(!owner_value_refusal("SHOP_TIMEZONE", "Europe/Atlantis").empty());
    BOOST_TEST(!owner_value_refusal("SHOP_TIMEZONE", "").empty());
}

BOOST_AUTO_TEST_SUITE_END()
