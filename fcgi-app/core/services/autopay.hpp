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

// Queues autopay jobs for subscriptions expiring within `window_s` (none while the balance
// is switched off); returns how many.
int64_t queue_due_autopay(pqxx::work& txn, const Settings& s, int64_t window_s);

}  // namespace cabinet
