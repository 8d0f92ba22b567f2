#pragma once
// Autopay: a subscription with autopay_enabled is renewed from the balance shortly before
// it expires, with the plan and duration (in constructor mode: the period and traffic pack)
// of its last purchase, at today's price for the
// user (the same quote() as everywhere). `cabinetctl autopay` (cron) queues one
// `autopay_renew` job per user, expiry and balance; the job renews or, when the balance is
// short, does nothing (the next scan after a top-up tries again: the balance is new).
#include <pqxx/pqxx>

#include "config/settings.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

inline constexpr const char* kAutopayJob = "autopay_renew";

enum class AutopayResult { renewed, not_due, no_plan, balance_short };

// Payload {"user_id": N}. Runs in the job's transaction, under the user's row lock.
AutopayResult autopay_renew(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t user_id);

// Queues autopay jobs for subscriptions expiring within `window_s` (none while the balance
// is switched off); returns how many.
int64_t queue_due_autopay(pqxx::work& txn, const Settings& s, int64_t window_s);

}  // namespace cabinet
