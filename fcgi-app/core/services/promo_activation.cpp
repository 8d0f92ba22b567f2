#include "services/promo_activation.hpp"

#include <algorithm>

#include "db/accounts_repo.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "db/web_auth_repo.hpp"
#include "errors.hpp"
#include "services/panel_restore.hpp"
#include "services/subscription_grant.hpp"

namespace cabinet {
namespace {

constexpr int64_t kOfferDays = 30;  // a "discount" reward waits this long for a purchase
// Unknown codes a user may try per AUTH_FAIL_WINDOW_S before 429: shops' codes are words
// ("SUMMER", "VPN50"), so a script with a word list would otherwise find them all. Counted
// in PostgreSQL under the user's row lock, so parallel guesses are counted one by one.
constexpr int64_t kUnknownCodesPerWindow = 10;

PromoOutcome refuse(std::string message) { return {false, std::nullopt, std::move(message)}; }

PromoOutcome apply(pqxx::work& txn, PanelClient& panel, const Settings& s, const LockedAccount& locked,
                   const pqxx::row& promo) {
    const PanelRestore restore(panel, locked);  // a grant below is recorded after its panel call
    const int64_t promo_id = promo["id"].as<int64_t>();
    const PromoReward type = state_from_text<PromoReward>(promo["reward_type"].c_str());
    const int64_t value = promo["value"].as<int64_t>();
    if (!promo["is_active"].as<bool>()) return refuse("This promo code is not active.");
    if (promo["not_yet"].as<bool>()) return refuse("This promo code is not active yet.");
    if (promo["expired"].as<bool>()) return refuse("This promo code has expired.");
    if (!promo["max_uses"].is_null() && promo["uses"].as<int64_t>() >= promo["max_uses"].as<int64_t>())
        return refuse("This promo code has been used up.");
    if (!exec_prepared(txn, "promo_activated_by", promo_id, locked.user.id).empty())
        return refuse("You have already used this promo code.");

    // A free grant never lifts the owner's block: the grant would enable the panel user and
    // start the days from now (as a trial may not either: services/trial.cpp).
    if (grants_days(type) && locked.subscription && locked.subscription->status == SubscriptionStatus::disabled)
        return refuse("Your subscription is disabled. Please contact support.");

    std::string message;
    if (type == PromoReward::balance) {
        const auto tx = exec_prepared(txn, "insert_transaction", locked.user.id, std::string(to_text(TransactionType::gift)),
                                      std::string(to_text(TransactionStatus::completed)), value,
                                      locked.user.currency, "promo", std::optional<std::string>(), "promo code");
        move_balance(txn, locked.user.id, value, LedgerReason::promo, tx[0][0].as<int64_t>());
        message = "Your balance has been topped up.";
    } else if (type == PromoReward::discount) {
        // One offer per user: a second code would replace it while an open invoice holds the
        // first, and that invoice's payment would then use the second one up.
        if (!exec_prepared(txn, "promo_offer_held", locked.user.id).empty())
            return refuse("Your current discount is held by a payment you started. Finish it, or wait until it "
                          "expires, then enter this code again.");
        exec_prepared(txn, "set_promo_offer", locked.user.id, value, kOfferDays);
        message = "A " + std::to_string(value) + "% discount applies to your next purchase within " +
                  std::to_string(kOfferDays) + " days.";
    } else if (type == PromoReward::days) {
        if (!locked.subscription) return refuse("There is no subscription to extend yet.");
        GrantSpec spec;
        spec.days = value;
        spec.keep_current_plan = true;
        spec.source = "promo";
        spec.traffic_strategy = s.traffic_reset_strategy;
        grant_subscription(txn, panel, locked, spec);
        message = std::to_string(value) + " days have been added to your subscription.";
    } else {  // subscription
        const auto plan = exec_prepared(txn, "plan_for_grant", promo["plan_id"].as<int64_t>());
        if (plan.empty()) return refuse("This promo code is not active.");
        GrantSpec spec;
        spec.days = value;
        spec.plan_id = plan[0]["id"].as<int64_t>();
        spec.plan_name = plan[0]["name"].c_str();
        spec.plan_code = plan[0]["public_code"].c_str();
        spec.traffic_limit_bytes = plan[0]["traffic_limit_bytes"].as<int64_t>();
        spec.device_limit = plan[0]["device_limit"].as<int64_t>();
        spec.source = "promo";
        spec.traffic_strategy = s.traffic_reset_strategy;
        grant_subscription(txn, panel, locked, spec);
        message = "Subscription " + spec.plan_name + " for " + std::to_string(value) + " days is active.";
    }
    exec_prepared(txn, "record_promo_activation", promo_id, locked.user.id);
    return {true, type, message};
}

}  // namespace

PromoOutcome activate_promo_code(Db& db, PanelClient& panel, const Settings& s, int64_t user_id, const std::string& code) {
    const int64_t window_s = s.auth_fail_window_s;
    return db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, user_id);
        const std::string misses_key = "promo:" + std::to_string(locked.user.id);
        const FailureCount misses = auth_failure_count(txn, misses_key, window_s);
        if (misses.count >= kUnknownCodesPerWindow)
            throw retry_later(429, "too many unknown promo codes, try again later", misses.retry_after_s);
        auto promo = exec_prepared(txn, "promo_by_code", code);
        if (promo.empty()) {
            auth_failure_hit(txn, misses_key, window_s);
            return refuse("Promo code not found.");
        }
        if (!promo[0]["max_uses"].is_null()) promo = exec_prepared(txn, "promo_for_update", promo[0]["id"].as<int64_t>());
        if (promo.empty()) return refuse("Promo code not found.");  // deleted meanwhile
        return apply(txn, panel, s, locked, promo[0]);
    });
}

}  // namespace cabinet
