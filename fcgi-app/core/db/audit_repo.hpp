#pragma once
// The audit log (migration 0005): what admins did from the maintenance screen, the bot or
// cabinetctl, and what the watchdog and the worker did for them. Append-only.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cabinet {

struct AuditEntry {
    int64_t id = 0;
    int64_t at = 0;  // unix seconds
    std::string actor;
    std::string action;
    std::string entity;   // empty when none
    std::string payload;  // JSON object text
};

// How the log names a person: 'telegram:<id>' when they have one, else 'user:<id>'.
std::string audit_actor(int64_t user_id, const std::optional<int64_t>& telegram_id);

// Appends an entry; `payload_json` must be a JSON object. Returns its id.
int64_t write_audit(pqxx::transaction_base& txn, std::string_view actor, std::string_view action,
                    std::string_view entity, std::string_view payload_json = "{}");

// The newest `limit` entries, newest first.
std::vector<AuditEntry> latest_audit(pqxx::transaction_base& txn, int64_t limit);

}  // namespace cabinet
