#include "services/maintenance_admin.hpp"

#include "backup/backup.hpp"
#include "db/audit_repo.hpp"
#include "jobs/job_queue.hpp"
#include "services/maintenance.hpp"
#include "util/json.hpp"

namespace cabinet {

MaintenanceState switch_maintenance_by_owner(Db& db, const Settings& s, bool enabled, const std::string& actor,
                                             const std::string& message) {
    return db.write([&](pqxx::work& txn) { return switch_maintenance(txn, s, enabled, actor, message); });
}

int64_t queue_backup(Db& db, const std::string& actor) {
    return db.write([&](pqxx::work& txn) {
        const std::string payload = json_object({{"requested_by", actor}});
        const int64_t id = jobs::enqueue(txn, backup::kBackupJob, payload);
        write_audit(txn, actor, "backup", "job:" + std::to_string(id), payload);
        return id;
    });
}

int64_t record_host_action(Db& db, const std::string& actor, const std::string& action) {
    return db.write([&](pqxx::work& txn) { return write_audit(txn, actor, action, "host", R"({"status":"scheduled"})"); });
}

}  // namespace cabinet
