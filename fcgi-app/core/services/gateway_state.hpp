#pragma once
// What a gateway's own account of a payment makes of our transaction. The webhook
// (api/payment_webhook.cpp) applies it after fetching the payment a notification names; the
// worker's recheck (services/payment_recheck.hpp) after asking the gateway unprompted. One
// rule for both: the provider's state decides, never what a notification claims.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>

#include "db/db.hpp"
#include "panel/panel_client.hpp"
#include "payments/cryptobot.hpp"
#include "payments/yookassa.hpp"

namespace cabinet {

// The transaction a provider's payment id belongs to, nullopt for an id we never stored (a
// notification for it is refused before the provider is asked).
std::optional<int64_t> payment_of(pqxx::transaction_base& txn, const std::string& gateway,
                                  const std::string& provider_payment_id);
// The same, read on its own (the webhook's lookup before it asks the provider).
std::optional<int64_t> payment_of(Db& db, const std::string& gateway, const std::string& provider_payment_id);

struct GatewayVerdict {
    // Paid now or late, a replay of a payment already paid, or refunded now or before: what
    // a provider's notification is answered `accepted: true` for.
    bool accepted = false;
    std::string outcome;  // for the log: "paid", "paid late", "replay", "underpaid", "canceled", ...
};

// A YooKassa payment of `transaction_id`: succeeded → confirmed; refunded (part or whole)
// → the rest credited first if it was never confirmed, then the refund taken back;
// canceled → the pending transaction ends; pending or waiting → nothing.
GatewayVerdict apply_yookassa_payment(pqxx::work& txn, PanelClient& panel, int64_t transaction_id,
                                      const YooKassaPayment& p);
// The same in a transaction of its own (Db::transact: the panel may be called under the locks).
GatewayVerdict apply_yookassa_payment(Db& db, PanelClient& panel, int64_t transaction_id, const YooKassaPayment& p);

// A CryptoBot invoice of `transaction_id`: paid → confirmed; anything else → nothing (an
// expired invoice is ended by our own expiry).
GatewayVerdict apply_cryptobot_invoice(pqxx::work& txn, int64_t transaction_id, const CryptoBotInvoice& inv);
// The same in a transaction of its own. Throws ApiError 404 for an unknown transaction.
GatewayVerdict apply_cryptobot_invoice(Db& db, int64_t transaction_id, const CryptoBotInvoice& inv);

}  // namespace cabinet
