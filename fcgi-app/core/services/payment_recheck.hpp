#pragma once
// A paid order is fulfilled even if every notification of its payment was lost (issue 49):
// the worker asks the gateway itself about online payments that are still pending after
// PAYMENT_RECHECK_AFTER_S (then again as often), and once more about one that expired
// unpaid, in case it was paid in its last minutes. What the gateway says is applied as a
// notification's would be (services/gateway_state.hpp): a paid payment is confirmed and its
// fulfilment queued, a canceled one ends. Notifications and rechecks meet on the payer's
// lock and confirm_payment's replay rule, so the order is fulfilled once whichever comes first.
#include <pqxx/pqxx>

#include <cstdint>

#include "config/settings.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

inline constexpr const char* kRecheckPaymentJob = "recheck_payment";

// Queues a `recheck_payment` job for each online payment due to be asked about, at most
// `limit`, and stamps them as asked (sql 0056 provider_checked_at). A payment stamped at or
// after `pass_start` (unix time) is not due again: a pass that calls this until it returns
// 0 ends even with `after_s` 0. Returns how many were queued.
int64_t queue_payment_rechecks(pqxx::transaction_base& txn, int64_t limit, int64_t after_s, int64_t pass_start);

// The job: asks the transaction's gateway about its payment and applies the answer. A
// gateway that is off now, or does not know the payment, leaves it as it is (logged); a
// gateway outage throws, so the job is retried with backoff.
void recheck_payment(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t transaction_id);

}  // namespace cabinet
