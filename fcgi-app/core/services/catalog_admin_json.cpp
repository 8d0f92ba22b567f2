// The owner's catalogue as JSON: the admin API's answers and the audit log's before and
// after of each change are the same text (services/catalog_admin.hpp).
#include "services/catalog_admin.hpp"
#include "util/json_object.hpp"

namespace cabinet {

void write_admin_plan(JsonWriter& w, const AdminPlan& p) {
    JsonObject o(w);
    o.put("code", p.code).put("name", p.name).put("description", p.description);
    o.put("traffic_limit_gb", p.traffic_limit_gb);  // 0 = unlimited, as given
    o.put("traffic_limit_bytes", p.traffic_limit_bytes).put("device_limit", p.device_limit);
    o.put("sort_order", p.sort_order).put("is_active", p.is_active);
    auto durations = o.array("durations");
    for (const auto& d : p.durations)
        durations.object().put("days", d.days).put("months", d.months).put("price_minor", d.price_minor);
}

void write_admin_sale(JsonWriter& w, const AdminSale& s) {
    JsonObject o(w);
    o.put("name", s.name).put("discount_pct", s.discount_pct);
    o.put("starts_at", iso8601_utc(s.starts_at)).put("ends_at", iso8601_utc(s.ends_at));
    o.put("running", s.running);
}

void write_admin_constructor(JsonWriter& w, const AdminConstructor& c) {
    JsonObject o(w);
    const auto items = [&](const char* key, const char* amount, const std::vector<AdminConstructorItem>& list, bool months) {
        auto arr = o.array(key);
        for (const auto& i : list) {
            auto item = arr.object();
            item.put(amount, i.amount);
            if (months) item.put("months", i.months);
            item.put("price_minor", i.price_minor).put("is_active", i.is_active);
        }
    };
    items("periods", "days", c.periods, true);
    items("packs", "gb", c.packs, false);
}

void write_admin_promo_group(JsonWriter& w, const AdminPromoGroup& g) {
    JsonObject(w).put("name", g.name).put("discount_pct", g.discount_pct).put("members", g.members);
}

}  // namespace cabinet
