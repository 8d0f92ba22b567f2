#include "db/statements.hpp"

namespace cabinet {

#define MAINTENANCE_COLUMNS                                                                             \
    "enabled, coalesce(source, '') AS source, coalesce(message, '') AS message, changed_by, "          \
    "floor(extract(epoch FROM changed_at))::bigint AS changed_at, panel_failures, "                     \
    "floor(extract(epoch FROM panel_checked_at))::bigint AS panel_checked_at, "                         \
    "coalesce(panel_last_error, '') AS panel_last_error"

// Maintenance mode and the audit log (services/maintenance.cpp).
std::vector<Statement> maintenance_statements() {
    return {
        {"maintenance_state", "SELECT " MAINTENANCE_COLUMNS " FROM maintenance_state WHERE id = 1"},
        {"maintenance_state_for_update", "SELECT " MAINTENANCE_COLUMNS " FROM maintenance_state WHERE id = 1 FOR UPDATE"},
        // The row appears with the first write, seeded from MAINTENANCE_MODE ($1).
        {"maintenance_seed",
         "INSERT INTO maintenance_state (id, enabled, source, changed_by) VALUES (1, $1, CASE WHEN $1 THEN 'manual' END,"
         " 'MAINTENANCE_MODE') ON CONFLICT (id) DO NOTHING"},
        {"maintenance_switch",
         "UPDATE maintenance_state SET enabled = $1, source = NULLIF($2, ''), message = NULLIF($3, ''), changed_by = $4,"
         " changed_at = now() WHERE id = 1"},
        {"maintenance_panel_check",
         "UPDATE maintenance_state SET panel_failures = $1, panel_checked_at = now(), panel_last_error = NULLIF($2, '')"
         " WHERE id = 1"},
        {"audit_insert",
         "INSERT INTO audit_log (actor, action, entity, payload) VALUES ($1, $2, NULLIF($3, ''), $4::jsonb) RETURNING id"},
        {"audit_latest",
         "SELECT id, floor(extract(epoch FROM at))::bigint AS at, actor, action, coalesce(entity, '') AS entity,"
         " payload::text AS payload FROM audit_log ORDER BY at DESC, id DESC LIMIT $1"},
    };
}

#undef MAINTENANCE_COLUMNS

}  // namespace cabinet
