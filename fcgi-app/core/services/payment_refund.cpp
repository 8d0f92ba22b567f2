#include "services/payment_refund.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "services/panel_restore.hpp"
#include "services/payment_confirmation.hpp"
#include "services/subscription_grant.hpp"

namespace cabinet {

const char* refund_outcome_name(RefundOutcome r) {
    switch (r) {
        case RefundOutcome::taken_back: return "taken back";
        case RefundOutcome::replay: return "replay";
        case RefundOutcome::partial: return "partial";
        case RefundOutcome::not_ours: return "not ours";
    }
    return "?";
}

int64_t stars_refund_target(pqxx::transaction_base& txn, int64_t payload_transaction_id, const std::string& charge_id) {
    const auto row = exec_prepared(txn, "stars_refund_target", payload_transaction_id, charge_id);
    return row[0][0].is_null() ? 0 : row[0][0].as<int64_t>();
}

namespace {

RefundOutcome take_refund_back(pqxx::work& txn, PanelClient& panel, int64_t transaction_id, std::string_view provider,
                               int64_t refunded) {
    // The buyer's row first, as every writer does, then the transaction's.
    const auto payer = lock_payer(txn, transaction_id);
    if (!payer) return RefundOutcome::not_ours;
    const LockedAccount& locked = *payer;
    const PanelRestore restore(panel, locked);
    const auto rows = exec_prepared(txn, "payment_for_refund", transaction_id);
    if (rows.empty()) return RefundOutcome::not_ours;
    const auto& t = rows[0];
    const TransactionStatus status = state_from_text<TransactionStatus>(t["status"].c_str());
    if (status == TransactionStatus::refunded) return RefundOutcome::replay;
    if (!t["paid"].as<bool>() || t["provider"].c_str() != provider) return RefundOutcome::not_ours;
    const int64_t paid = provider == to_text(Provider::stars) ? t["stars"].as<int64_t>() : t["amount_minor"].as<int64_t>();
    if (refunded < paid) {
        spdlog::warn("payment {}: {} of {} refunded by {}: recorded, nothing taken back", transaction_id, refunded, paid,
                     provider);
        exec_prepared(txn, "note_partial_refund", transaction_id, refunded);
        return RefundOutcome::partial;
    }
    if (status == TransactionStatus::completed && t["credited"].as<bool>()) {
        // It went to the balance: take it from there, as far as it is still there.
        const int64_t back = std::min(locked.user.balance_minor, t["amount_minor"].as<int64_t>());
        if (back > 0) move_balance(txn, locked.user.id, -back, LedgerReason::refund, transaction_id);
        if (back < t["amount_minor"].as<int64_t>())
            spdlog::warn("payment {}: refunded, but {} of its {} credit was already spent", transaction_id,
                         t["amount_minor"].as<int64_t>() - back, t["amount_minor"].as<int64_t>());
    } else if (status == TransactionStatus::completed) {
        take_back_days(txn, panel, locked, t["days"].as<int64_t>(), transaction_id);
    }
    // Paid but not yet fulfilled: `refunded` stops the fulfilment job from granting anything.
    exec_prepared(txn, "mark_payment_refunded", transaction_id);
    return RefundOutcome::taken_back;
}

}  // namespace

RefundOutcome refund_payment(pqxx::work& txn, PanelClient& panel, int64_t transaction_id, std::string_view provider,
                             int64_t refunded) {
    const RefundOutcome r = take_refund_back(txn, panel, transaction_id, provider, refunded);
    if (r != RefundOutcome::not_ours || transaction_id > 0)
        record_payment_event(txn, transaction_id, provider, std::string("refund: ") + refund_outcome_name(r), refunded);
    return r;
}

}  // namespace cabinet
