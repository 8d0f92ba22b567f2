#include "db/audit_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

std::string audit_actor(int64_t user_id, const std::optional<int64_t>& telegram_id) {
    return telegram_id ? "telegram:" + std::to_string(*telegram_id) : "user:" + std::to_string(user_id);
}

int64_t write_audit(pqxx::transaction_base& txn, std::string_view actor, std::string_view action, std::string_view entity,
                    std::string_view payload_json) {
    // libpqxx 6 binds std::string, not string_view.
    return exec_prepared1(txn, "audit_insert", std::string(actor), std::string(action), std::string(entity),
                          std::string(payload_json))[0].as<int64_t>();
}

std::vector<AuditEntry> latest_audit(pqxx::transaction_base& txn, int64_t limit) {
    std::vector<AuditEntry> out;
    for (const auto& r : exec_prepared(txn, "audit_latest", limit)) {
        out.push_back({r["id"].as<int64_t>(), r["at"].as<int64_t>(), r["actor"].c_str(), r["action"].c_str(),
                       r["entity"].c_str(), r["payload"].c_str()});
    }
    return out;
}

}  // namespace cabinet
