#pragma once
// Crypto Pay API of @CryptoBot (https://help.crypt.bot/crypto-pay-api): an invoice priced
// in fiat that the buyer pays in any crypto asset. Webhook updates are signed:
// hex HMAC-SHA256 of the raw body keyed with SHA-256 of our API token.
#include <optional>
#include <string>
#include <string_view>

#include "net/http_client.hpp"
#include "payments/gateway.hpp"

namespace cabinet {

// The header `crypto-pay-api-signature` matches the body (constant-time comparison).
bool cryptobot_signature_ok(std::string_view token, std::string_view body, std::string_view signature_hex);
// The signature CryptoBot would send (tests, and the fake's counterpart).
std::string cryptobot_signature(std::string_view token, std::string_view body);

// An invoice, as far as we use it (a webhook update's payload, getInvoices' items).
struct CryptoBotInvoice {
    std::string invoice_id;      // as a string: our provider_payment_id
    std::string status;          // active, paid, expired
    int64_t transaction_id = 0;  // the invoice payload we set; 0 when absent or not ours
    int64_t amount_minor = 0;    // invoice amount, in minor units of `currency`
    std::string currency;        // fiat code for fiat invoices, else the crypto asset
};

// One webhook update: the invoice it is about.
struct CryptoBotUpdate : CryptoBotInvoice {
    std::string update_type;  // "invoice_paid" is the only one CryptoBot sends today
};
// nullopt when the body is not an update with an invoice (400).
std::optional<CryptoBotUpdate> parse_cryptobot_update(std::string_view body);

class CryptoBot : public Gateway {
public:
    // `slots`: the pool process's limit on gateway requests in flight (null: none).
    explicit CryptoBot(const Settings& s, const CallSlots* slots = nullptr);
    Checkout create(const CheckoutRequest& req) override;
    // The invoice as CryptoBot has it now (getInvoices), or nullopt when it does not know
    // the id. Throws GatewayError.
    std::optional<CryptoBotInvoice> fetch(const std::string& invoice_id);

private:
    std::string base_;
    std::string token_header_;
    HttpClient http_;
    const CallSlots* slots_;
};

}  // namespace cabinet
