#pragma once
// One online payment gateway (YooKassa, CryptoBot, ...): creates the payment page for a
// pending transaction. Confirmation arrives later through POST /api/v1/payments/{gateway}
// and is checked there; the purchase endpoint never fulfils an online payment (SPEC rule 2).
// Adding a gateway is one file implementing this and one line in make_gateway().
#include <memory>
#include <string>

#include "config/settings.hpp"
#include "errors.hpp"
#include "net/call_slots.hpp"

namespace cabinet {

// The gateway is down, slow or refused: 502, and the purchase leaves nothing behind.
class GatewayError : public ApiError {
public:
    explicit GatewayError(const std::string& why) : GatewayError("payment provider unavailable", why) {}
    const std::string& why() const { return why_; }

protected:
    GatewayError(const char* detail, const std::string& why) : GatewayError(502, detail, why) {}
    GatewayError(int status, const char* detail, const std::string& why)
        : ApiError(status, detail, status == kBusyStatus ? "busy" : "gateway_unavailable"), why_(why) {}

private:
    std::string why_;
};

// The provider answered and said no (a refund it will not make, with its reason): nothing
// moved there. 409 with the provider's words, for the owner to read.
class GatewayRefusal : public ApiError {
public:
    explicit GatewayRefusal(const std::string& detail) : ApiError(409, detail) {}
};

// This process already has GATEWAY_CONCURRENCY requests on the payment providers
// (net/call_slots.hpp): 503 "busy, try again" with Retry-After, before anything is sent or
// changed. A purchase is refused as for any gateway failure; a webhook's provider retries.
class GatewayBusy : public GatewayError {
public:
    GatewayBusy() : GatewayError(kBusyStatus, kBusyDetail, "all gateway slots of this process are in use") {
        add_retry_after(*this);
    }
};

struct CheckoutRequest {
    int64_t transaction_id = 0;  // our id; goes into the provider's metadata / payload
    int64_t amount_minor = 0;
    std::string currency;        // ISO code of the shop currency
    std::string description;
    std::string idempotence_key;  // for providers that take one
    // Where the provider sends the buyer back after paying; empty: the gateway's own default
    // (YOOKASSA_RETURN_URL or the mini-app). A web-cabinet buyer comes back to the web cabinet.
    std::string return_url;
};

struct Checkout {
    std::string provider_payment_id;  // UNIQUE in transactions
    std::string redirect_url;         // the payment page
};

class Gateway {
public:
    virtual ~Gateway() = default;
    virtual Checkout create(const CheckoutRequest& req) = 0;  // throws GatewayError
};

// The gateway `id` ("yookassa", "cryptobot") when it is enabled in the settings, else null.
// `slots`: the pool process's limit on gateway requests in flight (null: none).
std::unique_ptr<Gateway> make_gateway(const std::string& id, const Settings& s, const CallSlots* slots = nullptr);

}  // namespace cabinet
