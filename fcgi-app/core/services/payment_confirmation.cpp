#include "services/payment_confirmation.hpp"

#include <spdlog/spdlog.h>

#include "db/accounts_repo.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/order.hpp"
#include "services/referral_commission.hpp"

namespace cabinet {

bool stars_invoice_open(pqxx::transaction_base& txn, int64_t transaction_id, int64_t stars) {
    return !txn.exec_prepared("stars_invoice_open", transaction_id, stars).empty();
}

Confirmation confirm_payment(pqxx::work& txn, int64_t transaction_id, std::string_view provider,
                             std::string_view provider_payment_id, int64_t paid_amount, std::string_view paid_currency) {
    const auto rows = txn.exec_prepared("payment_for_update", transaction_id);
    if (rows.empty()) throw not_found("unknown payment");
    const auto& t = rows[0];
    if (t["paid"].as<bool>() || std::string_view(t["status"].c_str()) == "completed") return Confirmation::already_paid;
    if (std::string_view(t["status"].c_str()) != "pending") return Confirmation::underpaid;  // failed or canceled before
    if (!std::string_view(t["provider"].c_str()).empty() && t["provider"].c_str() != provider) {
        spdlog::warn("payment {}: confirmed by {} but created for {}", transaction_id, provider, t["provider"].c_str());
        return Confirmation::underpaid;
    }
    const bool stars = provider == "stars";
    const int64_t expected = stars ? t["stars"].as<int64_t>() : t["amount_minor"].as<int64_t>();
    const std::string expected_currency = stars ? "XTR" : t["currency"].c_str();
    if (paid_amount < expected || paid_currency != expected_currency) {
        spdlog::warn("payment {}: paid {} {} for an invoice of {} {}", transaction_id, paid_amount, paid_currency,
                     expected, expected_currency);
        txn.exec_prepared("mark_payment_failed", transaction_id, "paid amount or currency below the invoice");
        return Confirmation::underpaid;
    }
    txn.exec_prepared("mark_payment_paid", transaction_id, std::string(provider_payment_id));
    jobs::enqueue(txn, kFulfilJob, "{\"transaction_id\":" + std::to_string(transaction_id) + "}",
                  "fulfil:" + std::to_string(transaction_id));
    return Confirmation::accepted;
}

void fulfil_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id) {
    const auto owner = txn.exec_prepared("payment_owner", transaction_id);
    if (owner.empty()) throw std::runtime_error("fulfil: no transaction " + std::to_string(transaction_id));
    // The buyer's row first, as every writer does, then the transaction's.
    const LockedAccount locked = lock_account(txn, owner[0][0].as<int64_t>());
    const auto t = txn.exec_prepared("payment_to_fulfil", transaction_id)[0];
    if (std::string_view(t["status"].c_str()) == "completed") return;  // a second run: done already
    if (!t["paid"].as<bool>()) throw std::runtime_error("fulfil: transaction " + std::to_string(transaction_id) + " is not paid");
    GrantSpec grant = grant_from_snapshot(t["snapshot"].c_str());
    grant.source = "fulfil";
    grant.transaction_id = transaction_id;
    grant_subscription(txn, panel, locked, grant);
    txn.exec_prepared("complete_payment", transaction_id);
    txn.exec_prepared("consume_promo_offer", locked.user.id);
    reward_referrer(txn, s, locked.user, t["amount_minor"].as<int64_t>(), transaction_id);
}

}  // namespace cabinet
