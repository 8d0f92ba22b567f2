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

BOOST_AUTO_TEST_CASE(the_shop_offer_is_owner_level_and_secrets_and_urls_are_not) {
    for (const char* name : {"TRIAL_ENABLED", "TRIAL_DURATION_DAYS", "STARS_RATE_RUB", "YOOKASSA_ENABLED", "CRYPTOBOT_ENABLED",
                             "BALANCE_ENABLED", "SALES_MODE", "MAINTENANCE_MESSAGE", "CONNECTION_APPS", "REFERRAL_PERCENT"})
        BOOST_TEST((find_setting_spec(name) && find_setting_spec(name)->level == SettingLevel::owner), name);
    for (const auto& spec : setting_specs()) {
        if (spec.level != SettingLevel::owner) continue;
        const std::string n(spec.name);
        BOOST_TEST((n.find("SECRET") == std::string::npos && n.find("TOKEN") == std::string::npos &&
                    n.find("PASSWORD") == std::string::npos && n.find("URL") == std::string::npos), n);
    }
}

BOOST_AUTO_TEST_CASE(a_value_is_refused_with_the_parsers_message) {
    BOOST_TEST(owner_value_refusal("TRIAL_DURATION_DAYS", "7") == "");
    BOOST_TEST(owner_value_refusal("TRIAL_DURATION_DAYS", "0") == "TRIAL_DURATION_DAYS: must be between 1 and 365 (got \"0\")");
    BOOST_TEST(owner_value_refusal("SALES_MODE", "auction") == "SALES_MODE: must be one of: plans, constructor (got \"auction\")");
    BOOST_TEST(owner_value_refusal("CONNECTION_APPS", "happ,telegram") == "CONNECTION_APPS: unknown app telegram (got \"happ,telegram\")");
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
