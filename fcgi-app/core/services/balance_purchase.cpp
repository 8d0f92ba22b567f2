#include "services/balance_purchase.hpp"

#include <stdexcept>

#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/subscription_status.hpp"
#include "services/panel_restore.hpp"
#include "services/referral_commission.hpp"

namespace cabinet {

void consume_promo_offer_if_used(pqxx::work& txn, int64_t user_id, int64_t promo_pct) {
    if (promo_pct > 0) exec_prepared(txn, "consume_promo_offer", user_id);
}

SettledPurchase settle_purchase(pqxx::work& txn, PanelClient& panel, const Settings& s, const LockedAccount& locked,
                                const Order& order, const Settlement& how) {
    const PanelRestore restore(panel, locked);  // the panel put back if anything below fails
    const int64_t price = order.quote.final_minor;
    GrantSpec grant = order.grant;
    grant.source = how.source;
    grant.traffic = paid_period_traffic(s);
    grant.traffic_strategy = s.traffic_reset_strategy;
    // Panel first; then everything local in one statement (sql 0024, 0039 settle_purchase).
    PlannedGrant planned = plan_grant(panel, locked, grant);
    const Subscription& next = planned.next;
    const SubscriptionWrite w = subscription_write(locked);
    const ReferralReward none{};
    const auto reward = referral_reward(s, locked.user, price);
    const ReferralReward& r = reward ? *reward : none;
    const std::optional<int64_t> referrer = reward ? std::optional<int64_t>(r.referrer_id) : std::nullopt;
    const pqxx::row settled = exec_prepared1(
        txn, "settle_purchase", locked.user.id, price, locked.user.currency, how.method, order_snapshot_json(order),
        order_pricing_json(order), how.description, how.idempotency_key, std::string(ledger_reason_name(how.reason)),
        std::string(to_text(next.status)), next.is_trial, next.plan_id, planned.snapshot, next.start_at, next.expire_at, next.device_limit,
        next.traffic_limit_bytes, next.traffic_used_bytes, next.panel_uuid, next.short_uuid, next.subscription_url,
        w.read_revision, planned.source, grant.days, w.expire_before, order.discounts.promo_pct > 0, referrer,
        r.commission, r.bonus_kind, r.bonus_payload, r.bonus_dedupe_key, planned.mark);
    if (price > 0 && settled[1].is_null())
        throw std::logic_error("balance read under the lock no longer covers the price");
    SettledPurchase out;
    out.transaction_id = settled[0].as<int64_t>();
    planned.next.revision = written_revision(locked, settled[2]);
    out.subscription = std::move(planned.next);
    return out;
}

}  // namespace cabinet
