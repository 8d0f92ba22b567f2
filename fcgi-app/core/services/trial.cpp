#include "services/trial.hpp"

#include <stdexcept>

#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/states.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"
#include "services/panel_restore.hpp"
#include "services/subscription_grant.hpp"

namespace cabinet {

Subscription take_trial(Db& db, PanelClient& panel, const Settings& s, int64_t user_id) {
    if (!s.trial_enabled) throw bad_request("trial is disabled", "trial_disabled");
    return db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, user_id);
        const PanelRestore restore(panel, locked);
        if (locked.user.trial_used) throw bad_request("trial already used", "trial_used");
        if (locked.subscription) {
            const Subscription& cur = *locked.subscription;
            if (is_usable(cur, locked.locked_at)) throw ApiError(409, "a subscription is already active", "subscription_active");
            // Not usable, yet not the trial's to replace: an owner's block is not lifted by a
            // trial, and a paid subscription out of traffic keeps its days (a trial would turn
            // them into trial days, which the next purchase does not carry over).
            if (cur.status == SubscriptionStatus::disabled) throw ApiError(409, "the subscription is disabled", "subscription_disabled");
            if (!cur.is_trial && cur.expire_at > locked.locked_at)
                throw ApiError(409, "a paid subscription still has days left", "paid_days_left");
        }
        GrantSpec spec;
        spec.source = "trial";
        if (s.trial_price_minor > 0) {
            if (locked.user.balance_minor < s.trial_price_minor) throw ApiError(402, "balance too low for the trial", "insufficient_balance");
            const auto tx = exec_prepared(txn, "insert_transaction", locked.user.id,
                                          std::string(to_text(TransactionType::subscription_payment)),
                                          std::string(to_text(TransactionStatus::completed)), s.trial_price_minor, locked.user.currency, "balance",
                                          R"({"name":"Trial","trial":true})", "trial");
            spec.transaction_id = tx[0][0].as<int64_t>();
            if (!move_balance(txn, locked.user.id, -s.trial_price_minor, LedgerReason::trial, spec.transaction_id))
                throw std::logic_error("balance read under the lock no longer covers the trial");
        }
        spec.days = s.trial_duration_days;
        spec.trial = true;
        spec.plan_name = "Trial";
        spec.traffic_limit_bytes = s.trial_traffic_gb * 1024 * 1024 * 1024;
        spec.device_limit = s.trial_device_limit;
        spec.traffic_strategy = s.traffic_reset_strategy;
        Subscription granted = grant_subscription(txn, panel, locked, spec);
        exec_prepared(txn, "mark_trial_used", locked.user.id);
        return granted;
    });
}

}  // namespace cabinet
