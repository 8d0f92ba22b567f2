#include "services/owner_settings.hpp"

#include "config/owner_settings.hpp"
#include "db/audit_repo.hpp"
#include "db/owner_settings_repo.hpp"
#include "errors.hpp"
#include "util/json_object.hpp"

namespace cabinet {
namespace {

// Longer than any text the shop shows (a maintenance message is at most 1024 characters
// through the maintenance screen); a cap keeps the audit log and the snapshot small.
constexpr size_t kMaxValueBytes = 4096;

OwnerSettingView view_of(const SettingSpec& spec, const std::map<std::string, StoredSetting>& stored, const EnvLookup& env) {
    OwnerSettingView v;
    v.name = spec.name;
    v.help = spec.help;
    const char* raw = env(v.name.c_str());
    v.env_value = raw ? raw : std::string(spec.default_value);
    if (const auto it = stored.find(v.name); it != stored.end()) {
        v.value = it->second.value;
        v.source = "database";
        v.changed_by = it->second.changed_by;
        v.changed_at = it->second.changed_at;
    } else {
        v.value = v.env_value;
        v.source = raw ? "env" : "default";
    }
    v.default_value = spec.default_value;
    v.valid = setting_valid_values(spec);
    v.group = owner_setting_group(v.name);
    v.secret = is_secret_setting(v.name);
    v.is_set = !v.value.empty();
    if (v.secret) {
        v.value.clear();
        v.env_value.clear();
    }
    return v;
}

std::string audit_payload(const std::string& name, const std::string* from, const std::string* to) {
    const auto text = [](const std::string* s) { return s ? std::optional<std::string_view>(*s) : std::nullopt; };
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    // from or to null: the env file's value applied
    JsonObject(w).put("name", name).put("from", text(from)).put("to", text(to));
    return {buf.GetString(), buf.GetSize()};
}

// `change` of the owner-level setting `name`, as the admin API answers: 404 for any other
// name, 422 for what the parser says of its value.
template <typename F>
OwnerSettingView checked(const std::string& name, F&& change) {
    try {
        owner_setting_spec(name);
    } catch (const ConfigError& e) {
        throw not_found(e.what());
    }
    try {
        return change();
    } catch (const ConfigError& e) {
        throw ApiError(422, e.what());
    }
}

}  // namespace

std::vector<OwnerSettingView> owner_settings_view(pqxx::transaction_base& txn, const EnvLookup& env) {
    const auto stored = stored_owner_settings(txn);
    std::vector<OwnerSettingView> out;
    for (const SettingSpec* spec : owner_setting_specs()) out.push_back(view_of(*spec, stored, env));
    return out;
}

OwnerSettingView owner_setting_view(pqxx::transaction_base& txn, const std::string& name, const EnvLookup& env) {
    const SettingSpec& spec = owner_setting_spec(name);
    return view_of(spec, stored_owner_settings(txn), env);
}

OwnerSettingView set_owner_setting(pqxx::work& txn, const std::string& name, const std::string& value,
                                   const std::string& actor, const EnvLookup& env) {
    const SettingSpec& spec = owner_setting_spec(name);
    if (value.size() > kMaxValueBytes)
        throw ConfigError(name + ": at most " + std::to_string(kMaxValueBytes) + " bytes");
    check_owner_value(name, value);
    const auto before = lock_owner_setting(txn, name);
    put_owner_setting(txn, name, value, actor);
    // A secret's value stays out of the log: it says a new one was stored, never which.
    const std::string hidden = "(secret)";
    const bool secret = is_secret_setting(name);
    const std::string* from = before ? (secret ? &hidden : &before->value) : nullptr;
    write_audit(txn, actor, "settings.set", "setting:" + name, audit_payload(name, from, secret ? &hidden : &value));
    return view_of(spec, stored_owner_settings(txn), env);
}

OwnerSettingView unset_owner_setting(pqxx::work& txn, const std::string& name, const std::string& actor,
                                     const EnvLookup& env) {
    const SettingSpec& spec = owner_setting_spec(name);
    if (const auto before = lock_owner_setting(txn, name)) {
        delete_owner_setting(txn, name);
        const std::string hidden = "(secret)";
        write_audit(txn, actor, "settings.unset", "setting:" + name,
                    audit_payload(name, is_secret_setting(name) ? &hidden : &before->value, nullptr));
    }
    return view_of(spec, stored_owner_settings(txn), env);
}

std::vector<OwnerSettingView> owner_settings_view(Db& db) {
    return db.read([](auto& txn) { return owner_settings_view(txn, process_environment()); });
}

OwnerSettingView set_owner_setting(Db& db, const std::string& name, const std::string& value, const std::string& actor) {
    return checked(name, [&] {
        return db.write([&](pqxx::work& txn) { return set_owner_setting(txn, name, value, actor, process_environment()); });
    });
}

OwnerSettingView unset_owner_setting(Db& db, const std::string& name, const std::string& actor) {
    return checked(name, [&] {
        return db.write([&](pqxx::work& txn) { return unset_owner_setting(txn, name, actor, process_environment()); });
    });
}

}  // namespace cabinet
