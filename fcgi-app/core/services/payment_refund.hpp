#pragma once
// A provider gave a payment's money back (Telegram Stars `refunded_payment`, YooKassa
// `refund.succeeded`): what the payment bought is taken back, once. Days it added come off
// the subscription (panel first, not before now); an amount it put on the balance comes
// off the balance (ledger `refund`), as far as the balance still holds it. The transaction
// becomes `refunded`. A partial refund changes nothing but the record: how much of a plan
// a part of its price is worth is the operator's call (docs/decisions.md).
#include <pqxx/pqxx>

#include <string_view>

#include "panel/panel_client.hpp"

namespace cabinet {

enum class RefundOutcome {
    taken_back,  // refunded now
    replay,      // refunded before: nothing changed
    partial,     // less than the whole payment: recorded, nothing taken back
    not_ours,    // unknown, unpaid, or another provider's transaction
};

const char* refund_outcome_name(RefundOutcome r);

// `refunded` in the invoice's units: stars for provider "stars", minor units otherwise.
RefundOutcome refund_payment(pqxx::work& txn, PanelClient& panel, int64_t transaction_id, std::string_view provider,
                             int64_t refunded);

}  // namespace cabinet
