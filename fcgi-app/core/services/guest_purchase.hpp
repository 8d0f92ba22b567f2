#pragma once
// Buying without an account (issue 49), as the original's web cabinet does ("Buy now":
// POST /api/cabinet/auth/guest/purchase, then POST /api/cabinet/auth/login/auto), but safer:
// - the account is made for an address we do not know yet (no password, not verified: the
//   mailbox proves itself later, through "Forgot password?"); a known address's purchase
//   goes to that account and its owner is mailed, and nobody is signed in by it;
// - the one-time sign-in exists only for an account the purchase made, is stored hashed,
//   bound to the buying browser, valid kGuestSignInTtlS, used once, and refused for staff;
// - the subscription link is mailed once the payment is fulfilled, with no sign-in link in
//   it: an address typed by mistake lets nobody into the buyer's account.
// The payment itself is an ordinary online payment (services/online_checkout.hpp): the
// provider is asked with no lock held, and its failure takes back the payment and an account
// made for it.
#include <pqxx/pqxx>

#include <cstdint>
#include <string>

#include "config/settings.hpp"
#include "db/db.hpp"
#include "net/call_slots.hpp"
#include "services/order.hpp"

namespace cabinet {

// The guest's one-time sign-in: long enough to pay on the provider's page and come back.
inline constexpr int64_t kGuestSignInTtlS = 2 * 3600;

struct GuestBuyer {
    int64_t user_id = 0;
    bool created = false;  // made by this purchase: only then is there a sign-in
};

struct GuestPurchaseRequest {
    std::string email;
    std::string language;      // of the page: "ru" | "en", for an account made now
    std::string method;        // an online gateway's id
    OrderChoice choice;
    std::string return_page;   // where the gateway sends the buyer back
    std::string browser_hash;  // the buying browser's binding, hashed
};

struct GuestPurchaseResult {
    int64_t transaction_id = 0;
    std::string redirect_url;  // the provider's page
    std::string token;         // the one-time sign-in; "" for a known address
};

// The whole purchase: the account found or made, the order priced, the payment reserved
// under its lock, the provider asked after it, and the purchase recorded (the sign-in, or
// the known address's mail) only once the provider has answered.
GuestPurchaseResult guest_purchase(Db& db, const Settings& s, const CallSlots* checkout_slots,
                                   const GuestPurchaseRequest& req);

// The account of `email`: found, or made now with `language` and the shop's currency.
GuestBuyer guest_buyer(pqxx::dbtransaction& txn, const Settings& s, const std::string& email, const std::string& language);

// Records the purchase of `transaction_id`. For an account it made, returns the one-time
// sign-in token (stored hashed, bound to `browser_hash`); for a known address, mails its
// owner and returns "".
std::string record_guest_purchase(pqxx::transaction_base& txn, const Settings& s, int64_t transaction_id,
                                  const GuestBuyer& buyer, const std::string& email, const std::string& browser_hash);

// A fulfilled guest payment: the subscription link to the account's address, once. Nothing
// for a purchase that was not a guest's.
void mail_guest_subscription(pqxx::transaction_base& txn, const Settings& s, int64_t transaction_id);

}  // namespace cabinet
