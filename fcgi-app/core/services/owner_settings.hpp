#pragma once
// Changing owner-level settings (config/owner_settings.hpp), the same for `cabinetctl
// settings` and /api/admin/settings: the value is checked by the start-up parser (a bad one
// throws ConfigError with its message and writes nothing), stored, and audited in the same
// transaction; the table's trigger notifies every process (cache/live_settings.hpp).
#include <pqxx/pqxx>

#include <cstdint>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "db/db.hpp"

namespace cabinet {

// What an owner sees of one setting: the value in force and where it comes from.
struct OwnerSettingView {
    std::string name;
    std::string value;   // as written: the stored text, else the env file's, else the default
    std::string source;  // "database", "env" or "default"
    std::string env_value;  // what applies without a stored value (env file or default)
    std::string help;
    std::string default_value;  // the built-in default (kSpecs)
    std::string valid;          // what values are accepted, in the parser's words
    std::string group;          // the subject (config/owner_settings.hpp owner_setting_group)
    // A secret (a token, key or password) is written, never shown: value and env_value are
    // empty, and is_set tells whether one applies.
    bool secret = false;
    bool is_set = false;
    std::string changed_by;  // of a stored value; empty otherwise
    int64_t changed_at = 0;  // unix seconds, of a stored value; 0 otherwise
};

// Every owner-level setting, in the kSpecs table's order; `env` gives the env file's values.
std::vector<OwnerSettingView> owner_settings_view(pqxx::transaction_base& txn, const EnvLookup& env);
// One of them; ConfigError when `name` is not an owner-level setting.
OwnerSettingView owner_setting_view(pqxx::transaction_base& txn, const std::string& name, const EnvLookup& env);

// Stores `value` for `name`, audited as `actor` ("settings.set", {name, from, to}).
OwnerSettingView set_owner_setting(pqxx::work& txn, const std::string& name, const std::string& value,
                                   const std::string& actor, const EnvLookup& env);
// Removes the stored value (back to the env file's), audited as "settings.unset"; nothing
// to remove changes nothing and writes no audit entry.
OwnerSettingView unset_owner_setting(pqxx::work& txn, const std::string& name, const std::string& actor,
                                     const EnvLookup& env);

// The same for /api/admin/settings, each in a transaction of its own (a read for the list)
// and with this process's environment. A change answers as HTTP does: a name that is not
// an owner-level setting is ApiError 404 before anything runs, a value the parser refuses
// a 422 with the parser's message (nothing written).
std::vector<OwnerSettingView> owner_settings_view(Db& db);
OwnerSettingView set_owner_setting(Db& db, const std::string& name, const std::string& value, const std::string& actor);
OwnerSettingView unset_owner_setting(Db& db, const std::string& name, const std::string& actor);

}  // namespace cabinet
