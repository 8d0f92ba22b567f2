#pragma once
// The owner's app config row (table app_config): theme columns and the free-form `ui`.
#include <pqxx/pqxx>

#include "domain/app_config.hpp"

namespace cabinet {

// The row, or defaults when it is missing (a migration inserts it).
ThemeConfig load_app_config(pqxx::transaction_base& txn);

}  // namespace cabinet
