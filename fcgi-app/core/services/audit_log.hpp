#pragma once
// The audit log as the owner reads it (GET /api/admin/audit, api/admin.cpp): the newest
// entries, in a read of their own. What an entry holds and how one is written:
// db/audit_repo.hpp.
#include <cstdint>
#include <vector>

#include "db/audit_repo.hpp"
#include "db/db.hpp"

namespace cabinet {

// The newest `limit` entries, newest first.
std::vector<AuditEntry> latest_audit(Db& db, int64_t limit);

}  // namespace cabinet
