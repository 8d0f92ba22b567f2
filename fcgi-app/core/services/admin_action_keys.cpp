#include "services/admin_action_keys.hpp"

#include "db/prepared.hpp"
#include "errors.hpp"

namespace cabinet {

std::optional<std::string> claim_action_key(pqxx::transaction_base& txn, const std::string& key, const std::string& actor,
                                            const std::string& action, int64_t user_id) {
    if (!exec_prepared(txn, "admin_action_claim", key, actor, action, user_id).empty()) return std::nullopt;
    const pqxx::row first = exec_prepared1(txn, "admin_action_by_key", key);
    if (first["action"].c_str() != action || first["user_id"].as<int64_t>() != user_id)
        throw ApiError(409, "this Idempotency-Key was used for another action; send a new one");
    return std::string(first["answer"].c_str());
}

void store_action_answer(pqxx::transaction_base& txn, const std::string& key, const std::string& answer_json) {
    exec_prepared(txn, "admin_action_answer", key, answer_json);
}

}  // namespace cabinet
