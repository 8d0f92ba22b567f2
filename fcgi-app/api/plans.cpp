// GET /api/cabinet/plans: the plan catalogue with the caller's final prices (SPEC "Plan",
// "Price rules"). Every price goes through quote(), as POST /purchase does.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "domain/subscription_status.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_plans(Exchange& ex) {
    const Account& a = ex.caller();
    const auto catalog = ex.shared.catalog.get(ex.io.db, a.catalog_version);
    const int64_t now = unix_now();
    const Discounts discounts = discounts_for(a.user, running_sale_pct(catalog->sales, now));
    // "Current" means the plan the caller can use right now; an expired or disabled
    // subscription's plan is just another offer (a renewal is a purchase like any other).
    std::optional<int64_t> current_plan;
    if (a.subscription && is_usable(*a.subscription, now)) current_plan = a.subscription->plan_id;
    const int64_t rate = ex.settings().stars_rate_minor;

    JsonObject o(ex.resp.json());
    o.put("currency", a.user.currency);
    write_plan_items(o.key("items"), catalog->plans, discounts, rate, current_plan);
}

}  // namespace cabinet::api
