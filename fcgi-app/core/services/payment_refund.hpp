#pragma once
// A provider gave a payment's money back (Telegram Stars `refunded_payment`, YooKassa
// `refund.succeeded`): what the payment bought is taken back, once. Days it added come off
// the subscription (panel first, not before now); an amount it put on the balance comes
// off the balance (ledger `refund`), as far as the balance still holds it. The transaction
// becomes `refunded`. A partial refund changes nothing but the record: how much of a plan
// a part of its price is worth is the operator's call (docs/decisions.md).
#include <pqxx/pqxx>

#include <string>
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

// The transaction a Stars refund of `charge_id` ("stars:<telegram_payment_charge_id>") is
// about: the one that charge paid (an invoice, or the deposit of its second charge), else
// the payload's invoice if it was paid without recording a charge id; 0 for none.
int64_t stars_refund_target(pqxx::transaction_base& txn, int64_t payload_transaction_id, const std::string& charge_id);

// `refunded` in the invoice's units: stars for provider "stars", minor units otherwise.
RefundOutcome refund_payment(pqxx::work& txn, PanelClient& panel, int64_t transaction_id, std::string_view provider,
                             int64_t refunded);

}  // namespace cabinet
