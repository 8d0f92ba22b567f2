// The owner's catalogue as JSON: the admin API's answers and the audit log's before and
// after of each change are the same text (services/catalog_admin.hpp).
#include "services/catalog_admin.hpp"
#include "util/json_fields.hpp"

namespace cabinet {

void write_admin_plan(JsonWriter& w, const AdminPlan& p) {
    w.StartObject();
    put_text(w, "code", p.code);
    put_text(w, "name", p.name);
    put_text(w, "description", p.description);
    put_int(w, "traffic_limit_gb", p.traffic_limit_gb);  // 0 = unlimited, as given
    put_int(w, "traffic_limit_bytes", p.traffic_limit_bytes);
    put_int(w, "device_limit", p.device_limit);
    put_int(w, "sort_order", p.sort_order);
    put_bool(w, "is_active", p.is_active);
    w.Key("durations");
    w.StartArray();
    for (const auto& d : p.durations) {
        w.StartObject();
        put_int(w, "days", d.days);
        put_int(w, "months", d.months);
        put_int(w, "price_minor", d.price_minor);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void write_admin_sale(JsonWriter& w, const AdminSale& s) {
    w.StartObject();
    put_text(w, "name", s.name);
    put_int(w, "discount_pct", s.discount_pct);
    put_text(w, "starts_at", iso8601_utc(s.starts_at));
    put_text(w, "ends_at", iso8601_utc(s.ends_at));
    put_bool(w, "running", s.running);
    w.EndObject();
}

void write_admin_constructor(JsonWriter& w, const AdminConstructor& c) {
    const auto items = [&](const char* key, const char* amount, const std::vector<AdminConstructorItem>& list, bool months) {
        w.Key(key);
        w.StartArray();
        for (const auto& i : list) {
            w.StartObject();
            put_int(w, amount, i.amount);
            if (months) put_int(w, "months", i.months);
            put_int(w, "price_minor", i.price_minor);
            put_bool(w, "is_active", i.is_active);
            w.EndObject();
        }
        w.EndArray();
    };
    w.StartObject();
    items("periods", "days", c.periods, true);
    items("packs", "gb", c.packs, false);
    w.EndObject();
}

void write_admin_promo_group(JsonWriter& w, const AdminPromoGroup& g) {
    w.StartObject();
    put_text(w, "name", g.name);
    put_int(w, "discount_pct", g.discount_pct);
    put_int(w, "members", g.members);
    w.EndObject();
}

}  // namespace cabinet
