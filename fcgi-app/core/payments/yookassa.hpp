#pragma once
// YooKassa API v3 (https://yookassa.ru/developers/api): a redirect payment with immediate
// capture, and reading a payment back. Notifications carry no signature, so the webhook
// never trusts one: it fetches the payment by id with our credentials and acts on that.
#include <optional>
#include <string>
#include <string_view>

#include "net/http_client.hpp"
#include "payments/gateway.hpp"
#include "util/json.hpp"

namespace cabinet {

// A payment as YooKassa reports it (GET /payments/{id}).
struct YooKassaPayment {
    std::string id;
    std::string status;        // pending, waiting_for_capture, succeeded, canceled
    int64_t amount_minor = 0;  // amount.value
    std::string currency;      // amount.currency
    int64_t transaction_id = 0;  // metadata.transaction_id; 0 when absent or not ours
    std::string cancel_reason;   // cancellation_details.reason
    int64_t refunded_minor = 0;  // refunded_amount.value: what the shop has given back so far
};

// Decodes a payment object; nullopt when id, status or amount are missing or malformed.
std::optional<YooKassaPayment> parse_yookassa_payment(const rapidjson::Value& obj);
// YooKassa ids go into a URL path: only what their ids contain (hex digits, '-', '_').
bool plausible_yookassa_id(const std::string& id);

// A notification (POST /api/v1/payments/yookassa) as far as it is read before the payment
// is fetched back: which payment (object.id; a refund.* event's object.payment_id), and the
// event the caller claims. nullopt when the body is not client JSON (util/client_json) with
// an `object` whose payment id is plausible (400).
struct YooKassaNotification {
    std::string payment_id;
    std::string event;
};
std::optional<YooKassaNotification> parse_yookassa_notification(std::string_view body);

class YooKassa : public Gateway {
public:
    // `slots`: the pool process's limit on gateway requests in flight (null: none).
    explicit YooKassa(const Settings& s, const CallSlots* slots = nullptr);
    Checkout create(const CheckoutRequest& req) override;
    // The payment, or nullopt when YooKassa does not know the id (404). Throws GatewayError.
    std::optional<YooKassaPayment> fetch(const std::string& payment_id);
    // Gives `amount_minor` of a payment back (POST /refunds); the same `idempotence_key`
    // gets the same refund, so a retry never refunds twice. Returns the refund's status
    // (succeeded, pending, canceled). YooKassa's "no" (not refundable, too much) is
    // GatewayRefusal with its description; an outage GatewayError.
    std::string refund(const std::string& payment_id, int64_t amount_minor, const std::string& currency,
                       const std::string& idempotence_key);

private:
    std::string base_;
    std::string auth_header_;
    std::string return_url_;
    HttpClient http_;
    const CallSlots* slots_;
};

}  // namespace cabinet
