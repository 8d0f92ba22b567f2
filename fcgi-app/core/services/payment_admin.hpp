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
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/settings.hpp"
#include "panel/panel_client.hpp"
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
    int64_t user_id = 0;
    std::optional<int64_t> telegram_id;
    std::string username, first_name;
};

std::vector<PaymentRow> search_payments(pqxx::transaction_base& txn, const PaymentFilter& f);
void write_payment(JsonWriter& w, const PaymentRow& p);

// {"count", "amounts": [{"currency", "amount_minor"}]} of everything the filter finds.
void write_payment_totals(JsonWriter& w, pqxx::transaction_base& txn, const PaymentFilter& f);

extern const char* const kPaymentCsvHeader;
void append_payment_csv(std::string& out, const PaymentRow& p);

// {"payment": …, "events": [{"at", "provider", "outcome", "amount"}], "refundable": bool,
//  "refund_note": text, "refunded_by": {"actor", "reason", "at"} | null (an owner's refund
//  from the cabinet: who and why)}; nullopt when there is no such payment.
std::optional<std::string> payment_detail_json(pqxx::transaction_base& txn, int64_t id);

// The owner's refund of payment `id`, with the reason audited (entity "user:<buyer>", so the
// customer's card shows it). Returns the payment's detail after it.
std::string refund_by_owner(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t id,
                            const std::string& actor, const std::string& reason, const std::string& idempotency_key);

}  // namespace cabinet
