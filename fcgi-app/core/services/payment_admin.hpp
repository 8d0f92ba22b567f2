#pragma once
// The owner's payments (GET /api/admin/payments…, POST …/{id}/refund; docs/api.md
// "Payments"): every transaction with its customer, filtered, with totals for the filter;
// one payment with what each provider notification did to it; and the owner's refund.
//
// A refund is the provider's first (YooKassa's refund API, Telegram's refundStarPayment; a
// balance purchase needs none), under the buyer's row lock and the payment's, so two owners
// refunding one payment refund it once: the second waits, then finds it refunded (409).
// Then what the payment bought is taken back by the rules the webhooks already follow
// (services/payment_refund). A provider's "no" changes nothing here and says why (409).
// The handlers (api/admin_payments.cpp) call the Db& functions, each its own read or
// transaction.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "panel/panel_client.hpp"
#include "services/customer_handle.hpp"
#include "util/json.hpp"

namespace cabinet {

struct PaymentFilter {
    std::optional<std::string> status;  // pending, completed, canceled, refunded, failed
    std::optional<std::string> method;  // balance, stars, yookassa, cryptobot, promo…
    std::optional<std::string> type;    // deposit, subscription_payment, …
    std::optional<int64_t> user_id;
    std::optional<int64_t> from, until;  // created in [from, until), Unix seconds
    std::optional<int64_t> before_id;    // the cursor
    int64_t limit = 50;
};

// Checks the names (400 for an unknown status or type).
void check_payment_filter(const PaymentFilter& f);

struct PaymentRow {
    int64_t id = 0;
    int64_t created_at = 0, paid_at = 0, completed_at = 0;  // 0: not (yet)
    std::string type, status, method, currency, description, plan_name;
    std::optional<std::string> provider, provider_payment_id;
    int64_t amount_minor = 0;
    CustomerHandle customer;  // the buyer
};

std::vector<PaymentRow> search_payments(pqxx::transaction_base& txn, const PaymentFilter& f);
std::vector<PaymentRow> search_payments(Db& db, const PaymentFilter& f);  // a read of its own
void write_payment(JsonWriter& w, const PaymentRow& p);

// {"count", "amounts": [{"currency", "amount_minor"}]} of everything the filter finds.
void write_payment_totals(JsonWriter& w, pqxx::transaction_base& txn, const PaymentFilter& f);

// A page of the list and the totals of its whole filter, in one read.
struct PaymentPage {
    std::vector<PaymentRow> items;
    std::string totals_json;  // write_payment_totals' object
};
PaymentPage payments_page(Db& db, const PaymentFilter& f);

extern const char* const kPaymentCsvHeader;
void append_payment_csv(std::string& out, const PaymentRow& p);

// {"payment": …, "events": [{"at", "provider", "outcome", "amount"}], "refundable": bool,
//  "refund_note": text, "refunded_by": {"actor", "reason", "at"} | null (an owner's refund
//  from the cabinet: who and why)}; nullopt when there is no such payment.
std::optional<std::string> payment_detail_json(pqxx::transaction_base& txn, int64_t id);
std::optional<std::string> payment_detail_json(Db& db, int64_t id);  // a read of its own

// The owner's refund of payment `id`, with the reason audited (entity "user:<buyer>", so the
// customer's card shows it). Returns the payment's detail after it.
std::string refund_by_owner(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t id,
                            const std::string& actor, const std::string& reason, const std::string& idempotency_key);
struct OwnerRefund {
    int64_t payment_id = 0;
    std::string actor;
    std::string reason;  // trimmed, 1..500 characters
    std::string idempotency_key;
};
// The same in a transaction of its own (Db::transact: the provider is called inside, never twice).
std::string refund_by_owner(Db& db, PanelClient& panel, const Settings& s, const OwnerRefund& r);

}  // namespace cabinet
