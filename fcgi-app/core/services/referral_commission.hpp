#pragma once
// What a referrer gets when their referral pays for a subscription:
// - REFERRAL_PERCENT of every paid purchase to the balance (ledger + history), once per
//   purchase transaction (the ledger's transaction_id is UNIQUE);
// - REFERRAL_BONUS_DAYS added to their subscription after the referral's first paid
//   purchase: a `referral_bonus` job, deduplicated per referral, so it happens once ever and
//   a panel outage delays it instead of failing the referral's purchase. The done job is
//   the record of "once": `cabinetctl cleanup` keeps it (tools/cabinetctl/cleanup.cpp
//   names this kind). A dead one (an outage longer than its attempts) is queued again by
//   the next purchase or, an hour after it died, by the worker's heartbeat.
#include <pqxx/pqxx>

#include <optional>
#include <string>

#include "config/settings.hpp"
#include "domain/account.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

inline constexpr const char* kReferralBonusJob = "referral_bonus";
inline constexpr const char* kReferralBonusKeyPrefix = "refbonus:";  // + the referral's id: once per referral

// What the referrer of `buyer` gets for a purchase of `amount_minor`: nothing without a
// referrer or for a free purchase. Written by sql 0024 reward_referrer, which takes these
// fields as they are.
struct ReferralReward {
    int64_t referrer_id = 0;
    int64_t commission = 0;  // REFERRAL_PERCENT of the amount, rounded down (0: none)
    // The referral_bonus job (all three unset: none), deduplicated once per referral.
    std::optional<std::string> bonus_kind, bonus_payload, bonus_dedupe_key;
};
std::optional<ReferralReward> referral_reward(const Settings& s, const User& buyer, int64_t amount_minor);

// Writes referral_reward's reward for the purchase `transaction_id` (one statement).
void reward_referrer(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount_minor,
                     int64_t transaction_id);

// The referral_bonus job: payload {"referrer_id": N, "referral_id": M}. A referrer without
// a subscription gets nothing to extend (logged).
void grant_referral_bonus(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t referrer_id);

// Queues again (at most `limit`) the bonus of each referral whose bonus job died at least
// `quiet_s` seconds ago and that no job grants or has granted, unless the referrer's
// account is gone. Returns how many were queued. The worker's heartbeat calls it with an
// hour's wait, `cabinetctl jobs requeue-paid` with none.
int64_t requeue_referral_bonuses(pqxx::transaction_base& txn, int64_t limit, int64_t quiet_s);

}  // namespace cabinet
