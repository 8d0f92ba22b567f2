// GET /api/cabinet/plans: the plan catalogue with the caller's final prices (SPEC "Plan",
// "Price rules"). Every price goes through quote(), as POST /purchase does.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "db/catalog_repo.hpp"
#include "domain/subscription_status.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_plans(Exchange& ex) {
    const Account& a = ex.caller();
    const auto [plans, discounts] = ex.io.db.read([&](pqxx::transaction_base& txn) {
        return std::pair{active_plans(txn), caller_discounts(txn, a.user)};
    });
    // "Current" means the plan the caller can use right now; an expired or disabled
    // subscription's plan is just another offer (a renewal is a purchase like any other).
    std::optional<int64_t> current_plan;
    if (a.subscription && is_usable(*a.subscription, unix_now())) current_plan = a.subscription->plan_id;
    const int64_t rate = ex.settings().stars_rate_minor;

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("currency");
    write_string(w, a.user.currency);
    w.Key("items");
    write_plan_items(w, plans, discounts, rate, current_plan);
    w.EndObject();
}

}  // namespace cabinet::api
