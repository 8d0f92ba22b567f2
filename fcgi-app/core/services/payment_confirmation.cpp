#include "services/payment_confirmation.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/balance_purchase.hpp"
#include "services/guest_purchase.hpp"
#include "services/order.hpp"
#include "services/panel_restore.hpp"
#include "services/referral_commission.hpp"

namespace cabinet {
std::optional<LockedAccount> lock_payer(pqxx::transaction_base& txn, int64_t transaction_id) {
    const auto owner = exec_prepared(txn, "payment_owner", transaction_id);
    if (owner.empty()) return std::nullopt;
    return lock_account(txn, owner[0][0].as<int64_t>());
}

const char* confirmation_name(Confirmation c) {
    switch (c) {
        case Confirmation::accepted: return "accepted";
        case Confirmation::late: return "late";
        case Confirmation::already_paid: return "replay";
        case Confirmation::underpaid: return "underpaid";
        case Confirmation::refused: return "refused";
        case Confirmation::second_charge: return "second charge";
    }
    return "?";
}

bool stars_invoice_open(pqxx::transaction_base& txn, int64_t transaction_id, int64_t stars) {
    return !exec_prepared(txn, "stars_invoice_open", transaction_id, stars).empty();
}

namespace {

// The invoice's price, or the paid share of it, on the balance as a deposit of its own.
// A replay of the same charge finds its row (the unique charge id) and changes nothing.
void credit_second_charge(pqxx::work& txn, int64_t transaction_id, std::string_view charge_id, int64_t paid_stars,
                          int64_t invoice_stars, int64_t invoice_minor) {
    const int64_t credit = invoice_stars > 0 ? invoice_minor * std::min(paid_stars, invoice_stars) / invoice_stars : 0;
    const auto row = exec_prepared(txn, "insert_second_charge", transaction_id, std::string(charge_id), credit, paid_stars);
    if (row.empty()) return;
    const int64_t deposit = row[0]["id"].as<int64_t>();
    spdlog::warn("payment {}: charged again ({}); {} credited to the balance of user {} as transaction {}", transaction_id,
                 charge_id, credit, row[0]["user_id"].as<int64_t>(), deposit);
    if (credit > 0) move_balance(txn, row[0]["user_id"].as<int64_t>(), credit, LedgerReason::deposit, deposit);
}

}  // namespace

void record_payment_event(pqxx::transaction_base& txn, int64_t transaction_id, std::string_view provider,
                          std::string_view outcome, std::optional<int64_t> amount) {
    exec_prepared(txn, "record_payment_event", transaction_id, std::string(provider), std::string(outcome), amount);
}

namespace {

Confirmation decide_confirmation(pqxx::work& txn, int64_t transaction_id, std::string_view provider,
                                 std::string_view provider_payment_id, int64_t paid_amount, std::string_view paid_currency) {
    if (!lock_payer(txn, transaction_id)) throw not_found("unknown payment");
    const auto rows = exec_prepared(txn, "payment_for_update", transaction_id);
    if (rows.empty()) throw not_found("unknown payment");
    const auto& t = rows[0];
    const TransactionStatus status = state_from_text<TransactionStatus>(t["status"].c_str());
    const bool stars = provider == to_text(Provider::stars);
    if (t["paid"].as<bool>() || was_paid(status)) {
        const std::string_view first_charge = t["provider_payment_id"].c_str();
        if (stars && t["provider"].c_str() == provider && !first_charge.empty() && first_charge != provider_payment_id &&
            paid_currency == "XTR") {
            credit_second_charge(txn, transaction_id, provider_payment_id, paid_amount, t["stars"].as<int64_t>(),
                                 t["amount_minor"].as<int64_t>());
            return Confirmation::second_charge;
        }
        if (t["paid"].as<bool>() || status == TransactionStatus::completed) return Confirmation::already_paid;
        return Confirmation::refused;
    }
    if (!std::string_view(t["provider"].c_str()).empty() && t["provider"].c_str() != provider) {
        spdlog::warn("payment {}: confirmed by {} but created for {}", transaction_id, provider, t["provider"].c_str());
        return Confirmation::refused;
    }
    const int64_t expected = stars ? t["stars"].as<int64_t>() : t["amount_minor"].as<int64_t>();
    const std::string expected_currency = stars ? "XTR" : t["currency"].c_str();
    if (paid_amount < expected || paid_currency != expected_currency) {
        spdlog::warn("payment {}: paid {} {} for an invoice of {} {}", transaction_id, paid_amount, paid_currency,
                     expected, expected_currency);
        exec_prepared(txn, "mark_payment_failed", transaction_id, "paid amount or currency below the invoice");
        return Confirmation::underpaid;
    }
    // The full amount: credited once (paid_at), also when the invoice had already ended:
    // the money is taken, so it buys what it can (fulfil_payment decides).
    const bool late = status != TransactionStatus::pending;
    exec_prepared(txn, "mark_payment_paid", transaction_id, std::string(provider_payment_id));
    jobs::enqueue(txn, kFulfilJob, "{\"transaction_id\":" + std::to_string(transaction_id) + "}",
                  kFulfilKeyPrefix + std::to_string(transaction_id), 0, jobs::kMoneyJobAttempts);
    return late ? Confirmation::late : Confirmation::accepted;
}

}  // namespace

Confirmation confirm_payment(pqxx::work& txn, int64_t transaction_id, std::string_view provider,
                             std::string_view provider_payment_id, int64_t paid_amount, std::string_view paid_currency) {
    const Confirmation c = decide_confirmation(txn, transaction_id, provider, provider_payment_id, paid_amount, paid_currency);
    record_payment_event(txn, transaction_id, provider, confirmation_name(c), paid_amount);
    return c;
}

void fulfil_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id) {
    // The buyer's row first, as every writer does, then the transaction's.
    const auto payer = lock_payer(txn, transaction_id);
    if (!payer) throw std::runtime_error("fulfil: no transaction " + std::to_string(transaction_id));
    const LockedAccount& locked = *payer;
    // The grant, the completion, the promo offer and the referrer's reward (a second user's
    // lock) commit together; if any fails, the panel goes back as well.
    const PanelRestore restore(panel, locked);
    const auto t = exec_prepared(txn, "payment_to_fulfil", transaction_id)[0];
    if (state_from_text<TransactionStatus>(t["status"].c_str()) != TransactionStatus::pending) return;  // a second run: done already
    if (!t["paid"].as<bool>()) throw std::runtime_error("fulfil: transaction " + std::to_string(transaction_id) + " is not paid");
    const int64_t amount = t["amount_minor"].as<int64_t>();
    if (!t["offer_holds"].as<bool>()) {
        // Its discount went to another purchase or ended before it was paid: the buyer keeps
        // the money, on the balance, and can buy at today's price.
        spdlog::warn("payment {}: paid after its discount ended; {} credited to the balance of user {}", transaction_id,
                     amount, locked.user.id);
        if (amount > 0) move_balance(txn, locked.user.id, amount, LedgerReason::deposit, transaction_id);
        exec_prepared(txn, "complete_payment_as_credit", transaction_id);
        return;
    }
    GrantSpec grant = grant_from_snapshot(t["snapshot"].c_str());
    grant.source = "fulfil";
    grant.transaction_id = transaction_id;
    grant.traffic = paid_period_traffic(s);
    grant.traffic_strategy = s.traffic_reset_strategy;
    grant_subscription(txn, panel, locked, grant);
    exec_prepared(txn, "complete_payment", transaction_id);
    consume_promo_offer_if_used(txn, locked.user.id, t["promo_pct"].as<int64_t>());
    reward_referrer(txn, s, locked.user, amount, transaction_id);
    mail_guest_subscription(txn, s, transaction_id);  // a guest's purchase: the link by mail
}

bool cancel_pending_payment(pqxx::work& txn, int64_t transaction_id, const std::string& provider_payment_id,
                            const std::string& provider, const std::string& reason) {
    if (!lock_payer(txn, transaction_id)) return false;
    const bool ended =
        exec_prepared0(txn, "mark_payment_canceled", transaction_id, provider_payment_id, provider, reason).affected_rows() > 0;
    record_payment_event(txn, transaction_id, provider, ended ? "canceled" : "canceled (nothing pending)", std::nullopt);
    return ended;
}

int64_t expire_pending_payments(Db& db, int64_t limit) {
    const pqxx::result due = db.read([&](auto& txn) { return exec_prepared(txn, "expired_pending_payments", limit); });
    int64_t ended = 0;
    for (const auto& r : due) {
        // The buyer's lock, as every payment writer takes it first; the statement rechecks
        // that the invoice is still unpaid and due.
        ended += db.write([&](pqxx::work& txn) {
            lock_account(txn, r["user_id"].as<int64_t>());
            return static_cast<int64_t>(exec_prepared0(txn, "expire_payment", r["id"].as<int64_t>()).affected_rows());
        });
    }
    return ended;
}

int64_t requeue_paid_orders(pqxx::transaction_base& txn, int64_t limit, int64_t quiet_s) {
    const auto rows = exec_prepared(txn, "requeue_paid_orders", limit, quiet_s, std::string(kFulfilKeyPrefix),
                                    std::string(kFulfilJob), jobs::kMoneyJobAttempts);
    return jobs::count_requeued(rows, [](const pqxx::row& r) {
        spdlog::warn("payment {}: paid but not fulfilled, its fulfilment job had died; queued again as job {}",
                     r["id"].as<int64_t>(), r["job"].as<int64_t>());
    });
}

}  // namespace cabinet
