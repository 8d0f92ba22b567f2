#pragma once
// The owner_settings table (sql 0030): owner-level values that override the env file.
// Writes check nothing themselves: services/owner_settings.hpp validates and audits.
#include <pqxx/pqxx>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/owner_settings.hpp"

namespace cabinet {

struct StoredSetting {
    std::string value;
    std::string changed_by;
    int64_t changed_at = 0;  // unix seconds
};

// Every stored value, by name. A plain statement, not a prepared one: the change listener
// runs it on its own connection, which prepares nothing.
std::vector<StoredValue> stored_owner_values(pqxx::transaction_base& txn);
// The same with who stored each value and when, by name.
std::map<std::string, StoredSetting> stored_owner_settings(pqxx::transaction_base& txn);

// The stored row of `name`, locked until the transaction ends; nullopt when none.
std::optional<StoredSetting> lock_owner_setting(pqxx::transaction_base& txn, const std::string& name);
void put_owner_setting(pqxx::transaction_base& txn, const std::string& name, const std::string& value,
                       const std::string& changed_by);
void delete_owner_setting(pqxx::transaction_base& txn, const std::string& name);

}  // namespace cabinet
