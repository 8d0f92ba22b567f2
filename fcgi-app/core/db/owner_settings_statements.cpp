#include "db/statements.hpp"

namespace cabinet {

// Owner-level settings stored in PostgreSQL (db/owner_settings_repo.cpp, sql 0030).
std::vector<Statement> owner_settings_statements() {
    return {
        {"owner_setting_get",
         "SELECT value, changed_by, floor(extract(epoch FROM changed_at))::bigint AS changed_at FROM owner_settings"
         " WHERE name = $1 FOR UPDATE"},
        {"owner_setting_put",
         "INSERT INTO owner_settings (name, value, changed_by) VALUES ($1, $2, $3)"
         " ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, changed_by = EXCLUDED.changed_by, changed_at = now()"},
        {"owner_setting_delete", "DELETE FROM owner_settings WHERE name = $1"},
    };
}

}  // namespace cabinet
