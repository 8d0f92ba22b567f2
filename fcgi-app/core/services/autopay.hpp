#pragma once
// Autopay: a subscription with autopay_enabled is renewed from the balance shortly before
// it expires, with the plan and duration (in constructor mode: the period and traffic pack)
// of its last purchase, at today's price for the
// user (the same quote() as everywhere). `cabinetctl autopay` (cron) queues one
// `autopay_renew` job per user, expiry and balance; the job renews or, when the balance is
// short, does nothing (the next scan after a top-up tries again: the balance is new).
#include <pqxx/pqxx>

#include <optional>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "db/db.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

inline constexpr const char* kAutopayJob = "autopay_renew";

enum class AutopayResult { renewed, not_due, no_plan, balance_short };

// Payload {"user_id": N, "expire_at": E}. Runs in the job's transaction, under the user's
// row lock. Renews only the expiry E the scan queued it for: any other is `not_due`. Two
// jobs can be queued for one expiry (a top-up between two scans makes a new key), and on
// a 1-day plan the first renewal, made after the expiry passed (jobs held up by a panel
// outage), lands within the last day again: the second job would renew a second time.
// Jobs queued before the payload carried the expiry (nullopt) check the window only.
AutopayResult autopay_renew(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t user_id,
                            std::optional<int64_t> queued_expiry = std::nullopt);

// What autopay will charge for the subscription of `locked`, and when: the last purchase at
// today's price for the customer, from the balance, within the last day before the expiry.
struct AutopayCharge {
    int64_t charge_from = 0;  // Unix seconds: the day before the expiry
    int64_t expire_at = 0;
    int64_t amount_minor = 0;
    std::string currency;
    std::string plan_name;
    int64_t days = 0;
    bool balance_enough = false;  // the balance holds the amount now
};
// nullopt without a subscription, for a trial, with nothing bought yet, or when what was
// bought is no longer sold.
std::optional<AutopayCharge> autopay_charge(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& locked);

// The customer's switch (PUT /api/cabinet/subscription/autopay), under their lock. Turning
// it on needs a paid subscription, something to renew and the balance on (409 naming what
// is missing; 404 without a subscription); off always works.
void set_autopay(pqxx::work& txn, const Settings& s, const LockedAccount& locked, bool enabled);

// What the customer sees (GET and PUT /api/cabinet/subscription/autopay): the switch and
// the next charge, priced under the user's lock with the discounts the account holds now,
// as the charge will be. Each in one Db::transact.
struct AutopayView {
    bool enabled = false;
    std::optional<AutopayCharge> charge;
};
AutopayView autopay_view(Db& db, const Settings& s, int64_t user_id);
// set_autopay, then the view after it.
AutopayView switch_autopay(Db& db, const Settings& s, int64_t user_id, bool enabled);

// Queues autopay jobs for subscriptions expiring within `window_s` (none while the balance
// is switched off); returns how many.
int64_t queue_due_autopay(pqxx::work& txn, const Settings& s, int64_t window_s);

}  // namespace cabinet
