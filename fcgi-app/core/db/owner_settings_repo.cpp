#include "db/owner_settings_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

std::vector<StoredValue> stored_owner_values(pqxx::transaction_base& txn) {
    std::vector<StoredValue> out;
    for (const auto& r : txn.exec("SELECT name, value FROM owner_settings ORDER BY name"))
        out.push_back({r[0].c_str(), r[1].c_str()});
    return out;
}

std::map<std::string, StoredSetting> stored_owner_settings(pqxx::transaction_base& txn) {
    std::map<std::string, StoredSetting> out;
    for (const auto& r : txn.exec("SELECT name, value, changed_by, floor(extract(epoch FROM changed_at))::bigint"
                                  " FROM owner_settings"))
        out[r[0].c_str()] = StoredSetting{r[1].c_str(), r[2].c_str(), r[3].as<int64_t>()};
    return out;
}

std::optional<StoredSetting> lock_owner_setting(pqxx::transaction_base& txn, const std::string& name) {
    const pqxx::result r = exec_prepared(txn, "owner_setting_get", name);
    if (r.empty()) return std::nullopt;
    return StoredSetting{r[0]["value"].c_str(), r[0]["changed_by"].c_str(), r[0]["changed_at"].as<int64_t>()};
}

void put_owner_setting(pqxx::transaction_base& txn, const std::string& name, const std::string& value,
                       const std::string& changed_by) {
    exec_prepared0(txn, "owner_setting_put", name, value, changed_by);
}

void delete_owner_setting(pqxx::transaction_base& txn, const std::string& name) {
    exec_prepared0(txn, "owner_setting_delete", name);
}

}  // namespace cabinet
