#include "services/payment_cancel.hpp"

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "errors.hpp"
#include "services/payment_confirmation.hpp"

namespace cabinet {

void cancel_own_payment(pqxx::work& txn, int64_t user_id, int64_t transaction_id) {
    lock_account(txn, user_id);  // the buyer's lock first, as every payment writer takes it
    const auto ended = exec_prepared(txn, "cancel_payment_by_buyer", transaction_id, user_id);
    if (!ended.empty()) {
        record_payment_event(txn, transaction_id, ended[0]["provider"].c_str(), "canceled by the buyer", std::nullopt);
        return;
    }
    const auto state = exec_prepared(txn, "buyer_payment_state", transaction_id, user_id);
    if (state.empty()) throw not_found("no payment with that id", "payment_not_found");
    const bool paid = state[0]["paid"].as<bool>() || was_paid(state_from_text<TransactionStatus>(state[0]["status"].c_str()));
    if (paid) throw conflict("this payment is paid already", "payment_paid");
    throw conflict("this payment is no longer open", "payment_not_open");
}

void cancel_own_payment(Db& db, int64_t user_id, int64_t transaction_id) {
    db.transact([&](pqxx::work& txn) { cancel_own_payment(txn, user_id, transaction_id); });
}

}  // namespace cabinet
