#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"

#include <stdexcept>

namespace cabinet {

std::string_view ledger_reason_name(LedgerReason r) {
    switch (r) {
        case LedgerReason::purchase: return "purchase";
        case LedgerReason::trial: return "trial";
        case LedgerReason::autopay: return "autopay";
        case LedgerReason::promo: return "promo";
        case LedgerReason::referral_commission: return "referral_commission";
        case LedgerReason::merge_in: return "merge_in";
        case LedgerReason::merge_out: return "merge_out";
        case LedgerReason::admin: return "admin";
        case LedgerReason::deposit: return "deposit";
        case LedgerReason::refund: return "refund";
    }
    throw std::logic_error("unknown ledger reason");
}

std::optional<int64_t> move_balance(pqxx::transaction_base& txn, int64_t user_id, int64_t delta, LedgerReason reason,
                                    std::optional<int64_t> transaction_id, std::string_view note) {
    if (delta == 0) throw std::logic_error("a ledger move of 0");
    const auto res = exec_prepared(txn, "ledger_move", user_id, delta, std::string(ledger_reason_name(reason)), transaction_id,
                                   std::string(note));
    if (res.empty() || res[0][0].is_null()) return std::nullopt;
    return res[0][0].as<int64_t>();
}

void record_subscription_history(pqxx::transaction_base& txn, int64_t user_id, std::string_view source,
                                 std::optional<int64_t> transaction_id, int64_t days,
                                 std::optional<int64_t> expire_before, int64_t expire_after) {
    exec_prepared(txn, "insert_subscription_history", user_id, std::string(source), transaction_id, days, expire_before,
                  expire_after);
}

}  // namespace cabinet
