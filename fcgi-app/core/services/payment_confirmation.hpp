#pragma once
// From "the provider says it is paid" to "the subscription is extended", in two durable
// steps. confirm_payment() runs in the webhook's transaction: it marks the transaction paid
// and enqueues its fulfilment in the same commit. fulfil_payment() is the job the worker
// runs: panel-first grant, then completed; running it twice extends once.
#include <pqxx/pqxx>

#include <optional>
#include <string_view>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

enum class Confirmation {
    accepted,       // marked paid now, fulfilment queued
    late,           // paid after the invoice had ended (expired, canceled, underpaid): queued too;
                    // fulfilment credits the balance if its discount no longer stands
    already_paid,   // a replay: nothing changed
    underpaid,      // amount or currency below the invoice: the payment is failed, nothing granted
    refused,        // not ours to credit: another provider's invoice, or a refunded one
    second_charge,  // Stars: another charge of an invoice already paid, credited to the
                    // balance as its own deposit (its charge id is unique: once)
};

// The buyer of a transaction, locked (the first lock every payment writer takes, as the
// locking rule says); nullopt for an unknown transaction.
std::optional<LockedAccount> lock_payer(pqxx::transaction_base& txn, int64_t transaction_id);

// For logs: accepted, late, replay, underpaid, refused, second charge.
const char* confirmation_name(Confirmation c);

// One line of a payment's history (payment_events, sql 0051): what a provider's notification,
// or the owner's refund, did to it. Nothing for an id that is not a transaction.
void record_payment_event(pqxx::transaction_base& txn, int64_t transaction_id, std::string_view provider,
                          std::string_view outcome, std::optional<int64_t> amount);

inline constexpr const char* kFulfilJob = "fulfil_payment";
// Its dedupe key is this prefix and the transaction's id: one live fulfilment per order.
inline constexpr const char* kFulfilKeyPrefix = "fulfil:";

// Telegram's pre-checkout question: is this Stars invoice still pending and in time, for
// exactly `stars`, and do the discounts its price used still stand?
bool stars_invoice_open(pqxx::transaction_base& txn, int64_t transaction_id, int64_t stars);

// `paid_amount` in minor units of `paid_currency` (for Telegram Stars: stars, "XTR").
// Locks the buyer first, as every writer does. Throws ApiError 404 for an unknown transaction.
// A Stars invoice link stays payable until the first payment is processed, so a double tap
// can charge it twice: a charge id other than the one that paid it is money taken too, and
// goes to the balance (a `deposit` transaction keyed by that charge id) rather than being
// kept as a replay.
Confirmation confirm_payment(pqxx::work& txn, int64_t transaction_id, std::string_view provider,
                             std::string_view provider_payment_id, int64_t paid_amount, std::string_view paid_currency);

// The fulfil_payment job: payload {"transaction_id": N}. Grants the order, or, when the
// discounts its price used no longer stand (a late payment whose promo offer went to
// another purchase, a sale that ended), credits the amount paid to the balance instead.
void fulfil_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id);

// The provider canceled its payment: the pending, unpaid transaction of that provider ends
// as `canceled` with `reason` (not when it is bound to another payment of it). The buyer's
// lock is taken first; the promo reservation goes back to the buyer (a trigger). True when
// it ended now.
bool cancel_pending_payment(pqxx::work& txn, int64_t transaction_id, const std::string& provider_payment_id,
                            const std::string& provider, const std::string& reason);

// Cancels unpaid invoices past their expires_at, at most `limit`; returns how many. One
// transaction per invoice, so the expirer holds one user's lock at a time: holding several
// (taken in expiry order) it could deadlock with a purchase that holds its buyer and locks
// the referrer after its panel call, and the purchase could be the one aborted.
int64_t expire_pending_payments(Db& db, int64_t limit);

// A paid order is never left behind: its fulfilment job retries for about nine hours
// (jobs::kMoneyJobAttempts), and one that dies anyway (a longer panel outage) is queued
// again here, at most `limit` orders, once its last job has been dead `quiet_s` seconds.
// The worker calls it with every heartbeat with an hour's quiet (the backoff's ceiling, so
// a stuck order keeps being tried hourly); `cabinetctl jobs requeue-paid` with none, once
// the operator has fixed the cause. Returns how many orders were queued.
int64_t requeue_paid_orders(pqxx::transaction_base& txn, int64_t limit, int64_t quiet_s);

}  // namespace cabinet
