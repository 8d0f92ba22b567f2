#include "services/referral_commission.hpp"

#include <spdlog/spdlog.h>

#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "jobs/job_queue.hpp"
#include "services/subscription_grant.hpp"

namespace cabinet {

void reward_referrer(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount, int64_t transaction_id) {
    if (!buyer.referred_by || amount <= 0) return;
    // floor(amount * pct / 100) without overflow
    const int64_t commission = amount / 100 * s.referral_percent + amount % 100 * s.referral_percent / 100;
    if (commission > 0) {
        // No lock_account: nothing is derived from the referrer's state. Their row is locked
        // once, at the strength the credit needs, before anything references it.
        txn.exec_prepared("lock_referrer", *buyer.referred_by);
        const auto entry = txn.exec_prepared("record_referral_commission", *buyer.referred_by, buyer.id, commission,
                                             transaction_id);
        if (!entry.empty())
            move_balance(txn, *buyer.referred_by, commission, LedgerReason::referral_commission, entry[0][0].as<int64_t>());
    }
    if (s.referral_bonus_days > 0)
        jobs::enqueue(txn, kReferralBonusJob,
                      "{\"referrer_id\":" + std::to_string(*buyer.referred_by) + ",\"referral_id\":" +
                          std::to_string(buyer.id) + "}",
                      "refbonus:" + std::to_string(buyer.id));
}

void grant_referral_bonus(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t referrer_id) {
    const LockedAccount locked = lock_account(txn, referrer_id);
    if (!locked.subscription) {
        spdlog::info("referral bonus for user {}: no subscription to extend", referrer_id);
        return;
    }
    GrantSpec bonus;
    bonus.days = s.referral_bonus_days;
    bonus.keep_current_plan = true;
    bonus.source = "referral_bonus";
    grant_subscription(txn, panel, locked, bonus);
}

}  // namespace cabinet
