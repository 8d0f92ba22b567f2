#include "services/autopay.hpp"

#include "db/accounts_repo.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/balance_purchase.hpp"

namespace cabinet {

namespace {
constexpr int64_t kAutopayWindowS = 24 * 3600;  // renew within the last day

// The customer's last purchase, as a purchase request: the same resolution and price as
// POST /purchase. A plan's or the constructor's, whichever it was; one of the mode the shop
// no longer sells is refused by resolve_order, like a plan no longer sold (nullopt).
std::optional<Order> last_order(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& locked) {
    const auto last = exec_prepared(txn, "last_plan_purchase", locked.user.id);
    if (last.empty()) return std::nullopt;
    const auto& p = last[0];
    OrderChoice choice;
    choice.constructor = p["plan_id"].is_null();
    const bool complete = choice.constructor ? !p["period_id"].is_null() && !p["pack_id"].is_null() : !p["days"].is_null();
    if (!complete) return std::nullopt;  // a snapshot that names no whole choice
    if (choice.constructor) {
        choice.period_id = p["period_id"].as<int64_t>();
        choice.pack_id = p["pack_id"].as<int64_t>();
    } else {
        choice.plan_id = p["plan_id"].as<int64_t>();
        choice.days = p["days"].as<int64_t>();
    }
    try {
        return resolve_order(txn, s, locked, choice);
    } catch (const ApiError&) {
        return std::nullopt;  // the plan or that duration is no longer sold
    }
}

AutopayView view_of(pqxx::work& txn, const Settings& s, const LockedAccount& locked) {
    return {locked.subscription && locked.subscription->autopay_enabled, autopay_charge(txn, s, locked)};
}

}  // namespace

std::optional<AutopayCharge> autopay_charge(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& locked) {
    const auto& sub = locked.subscription;
    if (!sub || sub->is_trial) return std::nullopt;
    const auto order = last_order(txn, s, locked);
    if (!order) return std::nullopt;
    AutopayCharge c;
    c.expire_at = sub->expire_at;
    c.charge_from = sub->expire_at - kAutopayWindowS;
    c.amount_minor = order->quote.final_minor;
    c.currency = locked.user.currency;
    c.plan_name = order->grant.plan_name;
    c.days = order->grant.days;
    c.balance_enough = locked.user.balance_minor >= c.amount_minor;
    return c;
}

void set_autopay(pqxx::work& txn, const Settings& s, const LockedAccount& locked, bool enabled) {
    if (!locked.subscription) throw not_found("no subscription", "no_subscription");
    if (enabled) {
        if (locked.subscription->is_trial) throw conflict("a trial is not renewed automatically: buy a plan first", "trial_not_renewed");
        if (!s.balance_enabled) throw conflict("the shop does not take payments from the balance", "balance_off");
        if (!last_order(txn, s, locked)) throw conflict("nothing to renew: buy a plan first", "nothing_to_renew");
    }
    exec_prepared0(txn, "set_autopay", locked.user.id, enabled);
}

AutopayView autopay_view(Db& db, const Settings& s, int64_t user_id) {
    return db.transact([&](pqxx::work& txn) { return view_of(txn, s, lock_account(txn, user_id)); });
}

AutopayView switch_autopay(Db& db, const Settings& s, int64_t user_id, bool enabled) {
    return db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, user_id);
        set_autopay(txn, s, locked, enabled);
        AutopayView out = view_of(txn, s, locked);
        out.enabled = enabled;  // `locked` was read before the switch
        return out;
    });
}

AutopayResult autopay_renew(pqxx::work& txn, PanelClient& panel, const Settings& s, int64_t user_id,
                            std::optional<int64_t> queued_expiry) {
    const LockedAccount locked = lock_account(txn, user_id);
    const auto& sub = locked.subscription;
    if (!sub || !sub->autopay_enabled || sub->is_trial || sub->expire_at - locked.locked_at > kAutopayWindowS)
        return AutopayResult::not_due;
    if (queued_expiry && sub->expire_at != *queued_expiry) return AutopayResult::not_due;  // renewed since
    // Checked again here, not only by the scan: the job may run hours later (it retries
    // through a panel outage). A blocked account, the owner's block on the panel
    // (`disabled`: a grant would lift it) or a subscription that ended meanwhile is not
    // renewed, nor anything when the shop has switched the balance off.
    if (locked.user.is_blocked || (sub->status != SubscriptionStatus::active && sub->status != SubscriptionStatus::limited) || !s.balance_enabled)
        return AutopayResult::not_due;
    const auto order = last_order(txn, s, locked);
    if (!order) return AutopayResult::no_plan;
    const int64_t price = order->quote.final_minor;
    if (locked.user.balance_minor < price) return AutopayResult::balance_short;
    settle_purchase(txn, panel, s, locked, *order,
                    Settlement{price ? "balance" : "free", "autopay", "", "autopay", LedgerReason::autopay});
    return AutopayResult::renewed;
}

int64_t queue_due_autopay(pqxx::work& txn, const Settings& s, int64_t window_s) {
    // Nothing to renew from while the shop has the balance off; the scan after it is back on
    // queues what is then due.
    if (!s.balance_enabled) return 0;
    int64_t queued = 0;
    for (const auto& r : exec_prepared(txn, "autopay_due", window_s)) {
        // One job per user, expiry and balance: a rerun of the scan adds nothing, and a job
        // that found the balance short leaves the way open for the scan after a top-up (a
        // job whose balance was enough renews and moves the expiry, so it is not due again).
        jobs::enqueue(txn, kAutopayJob,
                      "{\"user_id\":" + std::string(r["user_id"].c_str()) + ",\"expire_at\":" + r["expire_unix"].c_str() + "}",
                      "autopay:" + std::string(r["user_id"].c_str()) + ":" + r["expire_unix"].c_str() + ":" +
                          r["balance_minor"].c_str(),
                      0, jobs::kMoneyJobAttempts);
        ++queued;
    }
    return queued;
}

}  // namespace cabinet
