#include "services/audit_log.hpp"

namespace cabinet {

std::vector<AuditEntry> latest_audit(Db& db, int64_t limit) {
    return db.read([&](auto& txn) { return latest_audit(txn, limit); });
}

}  // namespace cabinet
