#pragma once
// The owner's maintenance screen (api/admin.cpp; SPEC "Maintenance screen actions"): the
// switch, a backup queued for the worker, a host action recorded. Each is one Db::write
// with its audit entry, so the entry is there exactly when the change is. The state's
// fresh read is services/maintenance.hpp's load_maintenance(Db&).
#include <cstdint>
#include <string>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "domain/maintenance.hpp"

namespace cabinet {

// switch_maintenance (services/maintenance.hpp) in a transaction of its own.
MaintenanceState switch_maintenance_by_owner(Db& db, const Settings& s, bool enabled, const std::string& actor,
                                             const std::string& message);

// A `backup` job for the worker, {"requested_by": actor}, audited as "backup" on
// "job:<id>". Returns the job's id.
int64_t queue_backup(Db& db, const std::string& actor);

// A host operation (update, restart-panel, …) recorded as scheduled, never run: the service
// has no business rebooting its host. Returns the audit entry's id.
int64_t record_host_action(Db& db, const std::string& actor, const std::string& action);

}  // namespace cabinet
