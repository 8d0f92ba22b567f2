#include "config/owner_settings.hpp"

#include <cstdlib>

#include "errors.hpp"

namespace cabinet {
namespace {

// Applies `value` to `s` through the spec's parser; the parser's message on failure.
void apply_checked(const SettingSpec& spec, Settings& s, std::string_view value) {
    try {
        spec.apply(s, value);
    } catch (const std::exception& e) {
        throw ConfigError(std::string(spec.name) + ": " + e.what() + " (got \"" + std::string(value.substr(0, 64)) + "\")");
    }
}

struct GroupOf {
    std::string_view name;
    std::string_view group;
};

// Each owner-level setting's subject, in the order the Settings screen lists the groups.
constexpr GroupOf kGroups[] = {
    {"SHOP_TIMEZONE", "shop"},
    {"BROADCAST_RATE_PER_S", "shop"},
    {"TRIAL_ENABLED", "trial"},
    {"TRIAL_DURATION_DAYS", "trial"},
    {"TRIAL_TRAFFIC_GB", "trial"},
    {"TRIAL_DEVICE_LIMIT", "trial"},
    {"TRIAL_PRICE", "trial"},
    {"SALES_MODE", "payments"},
    {"BALANCE_ENABLED", "payments"},
    {"STARS_RATE_RUB", "payments"},
    {"YOOKASSA_ENABLED", "payments"},
    {"YOOKASSA_SHOP_ID", "payments"},
    {"YOOKASSA_SECRET_KEY", "payments"},
    {"YOOKASSA_RETURN_URL", "payments"},
    {"CRYPTOBOT_ENABLED", "payments"},
    {"CRYPTOBOT_TOKEN", "payments"},
    {"CONSTRUCTOR_DEVICE_LIMIT", "payments"},
    {"REFERRAL_BONUS_DAYS", "referral"},
    {"REFERRAL_PERCENT", "referral"},
    {"DEFAULT_TRAFFIC_RESET_STRATEGY", "subscription"},
    {"RESET_TRAFFIC_ON_PAYMENT", "subscription"},
    {"HIDE_SUBSCRIPTION_LINK", "subscription"},
    {"SHOW_TRAFFIC_USAGE", "subscription"},
    {"CONNECTION_APPS", "connection"},
    {"MAINTENANCE_MESSAGE", "maintenance"},
    {"AUTO_MAINTENANCE_ENABLED", "maintenance"},
    {"SUPPORT_IDS", "staff"},
    {"VIEWER_IDS", "staff"},
};

bool ends_with(std::string_view s, std::string_view tail) {
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

}  // namespace

std::string_view owner_setting_group(std::string_view name) {
    for (const auto& g : kGroups)
        if (g.name == name) return g.group;
    return "";
}

bool is_secret_setting(std::string_view name) {
    return ends_with(name, "_SECRET") || ends_with(name, "_SECRET_KEY") || ends_with(name, "_TOKEN") ||
           ends_with(name, "_PASSWORD");
}

std::string setting_valid_values(const SettingSpec& spec) {
    // A DEL character: no parser of a number, a list or a choice takes it; a parser of text
    // does, and then any text goes.
    Settings scratch;
    try {
        spec.apply(scratch, "\x7f");
    } catch (const std::exception& e) {
        return e.what();
    }
    return "any text";
}

const EnvLookup& process_environment() {
    static const EnvLookup lookup = [](const char* name) { return std::getenv(name); };
    return lookup;
}

const SettingSpec* find_setting_spec(std::string_view name) {
    for (const auto& spec : setting_specs())
        if (spec.name == name) return &spec;
    return nullptr;
}

const SettingSpec& owner_setting_spec(std::string_view name) {
    const SettingSpec* spec = find_setting_spec(name);
    if (!spec) throw ConfigError(std::string(name) + ": no such setting");
    if (spec->level != SettingLevel::owner)
        throw ConfigError(std::string(name) + ": an infrastructure setting, changed in the env file only");
    return *spec;
}

std::vector<const SettingSpec*> owner_setting_specs() {
    std::vector<const SettingSpec*> out;
    for (const auto& spec : setting_specs())
        if (spec.level == SettingLevel::owner) out.push_back(&spec);
    return out;
}

void check_owner_value(std::string_view name, std::string_view value) {
    Settings scratch;
    apply_checked(owner_setting_spec(name), scratch, value);
}

Settings with_owner_values(const Settings& env, const std::vector<StoredValue>& stored) {
    Settings s = env;
    for (const auto& v : stored) {
        try {
            // On a copy: a parser that fails half-way leaves the field as the env set it.
            Settings trial = s;
            apply_checked(owner_setting_spec(v.name), trial, v.value);
            s = std::move(trial);
        } catch (const ConfigError& e) {
            s.notices.push_back(std::string("stored owner setting ignored, the env value applies: ") + e.what());
        }
    }
    return s;
}

}  // namespace cabinet
