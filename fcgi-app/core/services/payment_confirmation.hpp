#pragma once
// From "the provider says it is paid" to "the subscription is extended", in two durable
// steps. confirm_payment() runs in the webhook's transaction: it marks the transaction paid
// and enqueues its fulfilment in the same commit. fulfil_payment() is the job the worker
// runs: panel-first grant, then completed; running it twice extends once.
#include <pqxx/pqxx>

#include <string_view>

#include "config/settings.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

enum class Confirmation {
    accepted,       // marked paid now, fulfilment queued
    already_paid,   // a replay: nothing changed
    underpaid,      // amount or currency below the invoice: the payment is failed, nothing granted
};

inline constexpr const char* kFulfilJob = "fulfil_payment";

// Telegram's pre-checkout question: is this Stars invoice still pending, for exactly `stars`?
bool stars_invoice_open(pqxx::transaction_base& txn, int64_t transaction_id, int64_t stars);

// `paid_amount` in minor units of `paid_currency` (for Telegram Stars: stars, "XTR").
// Throws ApiError 404 for an unknown transaction.
Confirmation confirm_payment(pqxx::work& txn, int64_t transaction_id, std::string_view provider,
                             std::string_view provider_payment_id, int64_t paid_amount, std::string_view paid_currency);

// The fulfil_payment job: payload {"transaction_id": N}.
void fulfil_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id);

}  // namespace cabinet
