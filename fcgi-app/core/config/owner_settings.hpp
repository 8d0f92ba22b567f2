#pragma once
// Owner-level settings (SettingLevel::owner in the kSpecs table): the env file gives their
// defaults, a value stored in PostgreSQL (table owner_settings, sql 0030) overrides it.
// The same parser as at start-up checks a stored value, so a value is either refused with
// the parser's message or means exactly what it would mean in the env file.
// Pure: the reading and writing is db/owner_settings_repo.hpp, the live copy of the
// effective settings cache/live_settings.hpp.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/settings.hpp"

namespace cabinet {

// The process's environment as an EnvLookup (it never changes after start, so reading it
// later, from any thread, gives what load_settings_from_environment() read).
const EnvLookup& process_environment();

// The spec named `name`, or nullptr.
const SettingSpec* find_setting_spec(std::string_view name);

// The owner-level spec named `name`; ConfigError when there is none (unknown, or an
// infrastructure setting).
const SettingSpec& owner_setting_spec(std::string_view name);

// The owner-level specs, in the table's order.
std::vector<const SettingSpec*> owner_setting_specs();

// What the owner's Settings screen says of a setting beside its meaning:
// - its subject, to group the screen by: trial, payments, referral, subscription,
//   connection, maintenance, staff or shop (every owner-level setting has one; a unit test
//   holds it);
std::string_view owner_setting_group(std::string_view name);
// - whether it is a secret (a token, key or password): written, never shown back;
bool is_secret_setting(std::string_view name);
// - what values its parser accepts ("must be an integer between 1 and 365", "expected true
//   or false", "any text"), in the parser's own words: it is asked with a value no parser
//   takes, so the text can never disagree with the check.
std::string setting_valid_values(const SettingSpec& spec);

// Throws ConfigError "NAME: why (got ...)" when `name` is not an owner-level setting or
// `value` does not parse; returns nothing otherwise.
void check_owner_value(std::string_view name, std::string_view value);

struct StoredValue {
    std::string name;
    std::string value;
};

// `env` with each stored value applied on top. A stored value that no longer parses (an
// upgrade narrowed its range, a row written by hand) is skipped, with a line in `notices`:
// the env value stays in force and the process keeps running.
Settings with_owner_values(const Settings& env, const std::vector<StoredValue>& stored);

}  // namespace cabinet
