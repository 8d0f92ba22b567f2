#pragma once
// The bot's Telegram Stars updates (api/bot/stars.cpp), each in its own transaction:
// the pre-checkout question, a successful payment and a refund. The rules are
// services/payment_confirmation.hpp's and services/payment_refund.hpp's; this file only
// opens their transactions, so the webhook holds no SQL.
#include <cstdint>
#include <string>

#include "db/db.hpp"
#include "panel/panel_client.hpp"
#include "services/payment_confirmation.hpp"
#include "services/payment_refund.hpp"

namespace cabinet {

// A successful_payment or refunded_payment of one of our invoices.
struct StarsCharge {
    int64_t transaction_id = 0;  // the invoice payload: our transaction
    std::string currency;        // "XTR"
    int64_t amount = 0;          // stars
    std::string charge_id;       // telegram_payment_charge_id
};

// Pre-checkout: stars_invoice_open, read without a transaction.
bool stars_invoice_payable(Db& db, int64_t transaction_id, int64_t stars);

// confirm_payment of provider "stars" under the payment id "stars:<charge id>", in one
// Db::transact.
Confirmation confirm_stars_payment(Db& db, const StarsCharge& c);

// The charge, not the payload, says what is refunded: an invoice paid twice has one
// payload and two charges, the second of them on the balance (confirm_payment). The target
// is found and refunded in one Db::transact; `transaction_id` 0 (not_ours) when none.
struct StarsRefund {
    int64_t transaction_id = 0;
    RefundOutcome outcome = RefundOutcome::not_ours;
};
StarsRefund refund_stars_charge(Db& db, PanelClient& panel, const StarsCharge& c);

}  // namespace cabinet
