#pragma once
// An owner's action done once per Idempotency-Key (admin_actions, sql 0048): the customer
// actions and the payment refund. The key is claimed in the action's own transaction, so a
// second request with it waits for the first's commit, then gets the first's answer; a
// failed action rolls its claim back with everything else and spends no key.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

namespace cabinet {

// Claims `key` for `action` on customer `user_id`: nullopt when it is new (do the action,
// then store_action_answer), else the first answer's JSON text. A key used for another
// action or customer: ApiError 409.
std::optional<std::string> claim_action_key(pqxx::transaction_base& txn, const std::string& key, const std::string& actor,
                                            const std::string& action, int64_t user_id);
void store_action_answer(pqxx::transaction_base& txn, const std::string& key, const std::string& answer_json);

}  // namespace cabinet
