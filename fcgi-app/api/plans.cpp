// GET /api/cabinet/plans: the plan catalogue with the caller's final prices (SPEC "Plan",
// "Price rules"). Every price goes through quote(), as POST /purchase does.
#include "api/handlers.hpp"
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
    w.StartArray();
    for (const Plan& p : plans) {
        w.StartObject();
        w.Key("id");
        w.Int64(p.id);
        w.Key("public_code");
        write_string(w, p.public_code);
        w.Key("name");
        write_string(w, p.name);
        w.Key("description");
        write_string(w, p.description);
        w.Key("traffic_limit_bytes");
        if (p.traffic_limit_bytes) w.Int64(*p.traffic_limit_bytes);
        else w.Null();
        w.Key("device_limit");
        w.Int64(p.device_limit);
        w.Key("is_current");
        w.Bool(current_plan && *current_plan == p.id);
        w.Key("durations");
        w.StartArray();
        for (const PlanDuration& d : p.durations) {
            const Quote q = quote(d.price_minor, discounts, rate);
            w.StartObject();
            w.Key("days");
            w.Int64(d.days);
            w.Key("months");
            w.Int64(d.months);
            w.Key("price_minor");
            w.Int64(q.final_minor);
            w.Key("base_price_minor");
            w.Int64(q.list_minor);
            w.Key("price_stars");
            w.Int64(q.stars);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

}  // namespace cabinet::api
