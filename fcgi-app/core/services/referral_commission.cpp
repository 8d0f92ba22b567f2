#include "services/referral_commission.hpp"

#include <spdlog/spdlog.h>

#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "jobs/job_queue.hpp"
#include "services/panel_restore.hpp"
#include "services/subscription_grant.hpp"

namespace cabinet {

std::optional<ReferralReward> referral_reward(const Settings& s, const User& buyer, int64_t amount) {
    if (!buyer.referred_by || amount <= 0) return std::nullopt;
    ReferralReward r;
    r.referrer_id = *buyer.referred_by;
    // floor(amount * pct / 100) without overflow
    r.commission = amount / 100 * s.referral_percent + amount % 100 * s.referral_percent / 100;
    if (s.referral_bonus_days > 0) {
        r.bonus_kind = kReferralBonusJob;
        r.bonus_payload = "{\"referrer_id\":" + std::to_string(r.referrer_id) + ",\"referral_id\":" +
                          std::to_string(buyer.id) + "}";
        r.bonus_dedupe_key = kReferralBonusKeyPrefix + std::to_string(buyer.id);
    }
    return r;
}

void reward_referrer(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount, int64_t transaction_id) {
    const auto r = referral_reward(s, buyer, amount);
    if (!r) return;
    exec_prepared(txn, "reward_referrer", r->referrer_id, buyer.id, r->commission, transaction_id, r->bonus_kind,
                  r->bonus_payload, r->bonus_dedupe_key);
}

void grant_referral_bonus(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t referrer_id) {
    if (s.referral_bonus_days <= 0) {  // the owner ended the bonus after this job was queued
        spdlog::info("referral bonus for user {}: REFERRAL_BONUS_DAYS is 0, nothing granted", referrer_id);
        return;
    }
    const LockedAccount locked = lock_account(txn, referrer_id);
    const PanelRestore restore(panel, locked);
    if (!locked.subscription) {
        spdlog::info("referral bonus for user {}: no subscription to extend", referrer_id);
        return;
    }
    if (locked.subscription->status == SubscriptionStatus::disabled) {  // the owner's block: a free grant never lifts it
        spdlog::warn("referral bonus for user {}: the subscription is disabled, not extended", referrer_id);
        return;
    }
    GrantSpec bonus;
    bonus.days = s.referral_bonus_days;
    bonus.keep_current_plan = true;
    bonus.source = "referral_bonus";
    bonus.traffic_strategy = s.traffic_reset_strategy;
    grant_subscription(txn, panel, locked, bonus);
}

int64_t requeue_referral_bonuses(pqxx::transaction_base& txn, int64_t limit, int64_t quiet_s) {
    const auto rows = exec_prepared(txn, "requeue_referral_bonuses", limit, quiet_s, std::string(kReferralBonusKeyPrefix),
                                    std::string(kReferralBonusJob), jobs::kMoneyJobAttempts);
    return jobs::count_requeued(rows, [](const pqxx::row& r) {
        spdlog::warn("referral bonus for the referral {}: its job had died; queued again as job {}", r["referral"].c_str(),
                     r["job"].as<int64_t>());
    });
}

}  // namespace cabinet
