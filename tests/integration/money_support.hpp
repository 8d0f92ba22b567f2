#pragma once
// Helpers for the money invariant tests (issue 12): one shopper's account seen from every
// side (PostgreSQL, the ledger, the panel), the operations that grant days or move money,
// each as a user or Telegram or the operator causes it, and a start line for parallel runs.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "panel/panel_client.hpp"
#include "support.hpp"

namespace it::money {

inline constexpr int64_t kDay = 86400;
inline constexpr int64_t kStandardPrice = 29900;  // standard, 30 days (sql/demo.sql)
inline constexpr int64_t kCommission = 2990;      // REFERRAL_PERCENT 10 of it
inline constexpr int64_t kBonusDays = 7;          // REFERRAL_BONUS_DAYS

// A Telegram user who has made first contact.
struct Shopper {
    int64_t tg = 0;
    int64_t id = 0;
    std::string auth;
    std::string referral_code;
};
Shopper new_shopper(const std::string& start_param = {});
// A shopper with `balance` and a 30-day standard subscription bought from it (so a panel
// user exists and autopay has a plan to renew), whose expiry is then set to `expire_at` on
// both sides (PostgreSQL and the panel).
Shopper subscribed_shopper(int64_t balance, int64_t expire_at);

// A client of the stack's mock panel, as an operator working on the panel would use it.
cabinet::PanelClient panel();

// Everything a customer or an accountant would look at.
struct Books {
    int64_t expire_at = 0;        // subscriptions.expire_at
    int64_t panel_expire_at = 0;  // the panel user's expireAt
    int64_t balance = 0;
    int64_t ledger_sum = 0;       // sum of the user's ledger
    int64_t ledger_rows = 0;
    int64_t paid_transactions = 0;  // completed subscription payments
    int64_t history_id = 0;       // newest subscription_history row
};
Books books(const Shopper& s);
// subscription_history rows after `after_id` each start where the previous one ended (the
// first where `start` says); a message naming the first break, empty when unbroken.
std::string history_break(const Shopper& s, int64_t after_id, int64_t start);

// Operations; each returns the HTTP status (or the exit code for cabinetctl).
long renew(const Shopper& s);                           // POST /purchase standard 30 d from the balance
std::string new_days_promo(int days);                   // a fresh one-use "days" promo code
bool activate(const Shopper& s, const std::string& code);  // POST /promocode answered 200 with ok: true
long reset_link(const Shopper& s);
int64_t open_stars_invoice(const Shopper& s);           // POST /purchase method stars; the transaction id
long pay_stars_invoice(const Shopper& s, int64_t transaction_id);  // successful_payment on the bot webhook
int run_autopay_scan();                                 // cabinetctl autopay (queues due renewals)
int run_panel_sync(const Shopper& s);                   // cabinetctl sync-panel --user-id

// Waits until every job of these kinds whose payload names `key`=`value` is done.
bool jobs_done(const std::string& key, const std::string& value, int timeout_ms = 30000);
// Completed autopay renewals of the shopper.
int64_t autopay_renewals(const Shopper& s);
bool stars_fulfilled(int64_t transaction_id);
// The referral bonus job for `referral` (the referee) has granted its days.
bool bonus_granted(const Shopper& referral);

// The mock panel answers every API request `delay_ms` late for the next `times` requests
// (with HTTP method `method` only, when one is given).
void slow_panel(int delay_ms, int times, const std::string& method = {});
// The panel answers the next request with this HTTP method 500, as it does for a failure.
void panel_refuses_next(const std::string& method);
void panel_normal();

// Runs every task on its own thread, all released at once; returns when all are done.
void run_together(const std::vector<std::function<void()>>& tasks);

// cabinetctl check-ledger: exit code and output.
std::pair<int, std::string> check_ledger(const std::string& flags = {});

}  // namespace it::money
