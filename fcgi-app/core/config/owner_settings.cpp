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

}  // namespace

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
