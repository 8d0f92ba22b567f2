#include "services/order.hpp"

#include "db/catalog_repo.hpp"
#include "domain/catalog.hpp"
#include "errors.hpp"
#include "util/json_object.hpp"

namespace cabinet {
namespace {

constexpr int64_t kGiB = 1024LL * 1024 * 1024;

Order plan_order(const std::vector<Plan>& plans, const Settings& s, const OrderChoice& c, const Discounts& d) {
    const bool by_id = c.plan_id.has_value();
    const int64_t days = c.days;
    for (const Plan& p : plans) {
        if (by_id ? p.id != *c.plan_id : p.public_code != c.plan_code) continue;
        for (const PlanDuration& dur : p.durations) {
            if (dur.days != days) continue;
            Order o;
            o.mode = "plans";
            o.grant.days = days;
            o.grant.plan_id = p.id;
            o.grant.plan_name = p.name;
            o.grant.plan_code = p.public_code;
            o.grant.traffic_limit_bytes = p.traffic_limit_bytes.value_or(0);
            o.grant.device_limit = p.device_limit;
            o.discounts = d;
            o.quote = quote(dur.price_minor, d, s.stars_rate_minor);
            return o;
        }
        throw bad_request("this plan is not sold for " + std::to_string(days) + " days", "plan_unavailable");
    }
    throw bad_request("plan not found", "plan_unavailable");
}

Order constructor_order(const ConstructorPriceList& list, const Settings& s, const OrderChoice& c, const Discounts& d) {
    const int64_t period_id = c.period_id;
    const int64_t pack_id = c.pack_id;
    const ConstructorPeriod* period = nullptr;
    const TrafficPack* pack = nullptr;
    for (const auto& p : list.periods) if (p.id == period_id) period = &p;
    for (const auto& k : list.packs) if (k.id == pack_id) pack = &k;
    if (!period) throw bad_request("period not found", "plan_unavailable");
    if (!pack) throw bad_request("traffic pack not found", "plan_unavailable");
    Order o;
    o.mode = "constructor";
    o.period_id = period->id;
    o.pack_id = pack->id;
    o.pack_gb = pack->gb;
    o.grant.days = period->days;
    o.grant.plan_name = pack->gb == 0 ? "Unlimited" : std::to_string(pack->gb) + " GB";
    o.grant.traffic_limit_bytes = pack->gb * kGiB;
    o.grant.device_limit = s.constructor_device_limit;
    o.discounts = d;
    o.quote = constructor_quote(period->price_minor, pack->price_minor, d, s.stars_rate_minor);
    return o;
}

// What was bought (grant_from_snapshot reads it back).
void write_snapshot(JsonWriter& w, const Order& o) {
    JsonObject j(w);
    j.put("name", o.grant.plan_name).put("mode", o.mode);
    if (o.grant.plan_id) j.put("plan_id", *o.grant.plan_id).put("public_code", o.grant.plan_code);
    else j.put("period_id", o.period_id).put("pack_id", o.pack_id).put("gb", o.pack_gb);
    j.put("days", o.grant.days);
    j.put("traffic_limit_bytes", o.grant.traffic_limit_bytes).put("device_limit", o.grant.device_limit);
}

// How it was priced: the list price, each discount, and what was charged.
void write_pricing(JsonWriter& w, const Order& o) {
    const Discounts& d = o.discounts;
    JsonObject j(w);
    j.put("list_minor", o.quote.list_minor);
    j.put("personal_pct", d.personal_pct).put("group_pct", d.group_pct);
    j.put("promo_pct", d.promo_pct).put("sale_pct", d.sale_pct);
    j.put("discount_pct", o.quote.discount_pct).put("final_minor", o.quote.final_minor).put("stars", o.quote.stars);
}

}  // namespace

Order resolve_order(pqxx::transaction_base& txn, const Settings& s, const LockedAccount& buyer,
                    const OrderChoice& choice, const Catalog* catalog) {
    const Discounts d = discounts_for(buyer.user, buyer.running_sale_pct);
    if (s.sales_mode == "constructor") {
        if (!choice.constructor) throw bad_request("this shop sells period + traffic pack, not plans", "sales_mode_changed");
        return catalog ? constructor_order(catalog->constructor, s, choice, d)
                       : constructor_order(constructor_price_list(txn), s, choice, d);
    }
    if (choice.constructor) throw bad_request("this shop sells plans, not period + traffic pack", "sales_mode_changed");
    return catalog ? plan_order(catalog->plans, s, choice, d) : plan_order(active_plans(txn), s, choice, d);
}

std::string order_snapshot_json(const Order& o) { return json_text(write_snapshot, o); }

std::string order_pricing_json(const Order& o) { return json_text(write_pricing, o); }

GrantSpec grant_from_snapshot(const std::string& json) {
    rapidjson::Document d;
    d.Parse<kStrictParse>(json.data(), json.size());
    if (d.HasParseError() || !d.IsObject()) throw std::runtime_error("transaction snapshot is not JSON");
    auto num = [&](const char* k) {
        auto it = d.FindMember(k);
        if (it == d.MemberEnd() || !it->value.IsInt64()) throw std::runtime_error(std::string("snapshot lacks ") + k);
        return it->value.GetInt64();
    };
    auto str = [&](const char* k) {
        auto it = d.FindMember(k);
        return it != d.MemberEnd() && it->value.IsString() ? std::string(it->value.GetString()) : std::string();
    };
    GrantSpec g;
    g.days = num("days");
    g.traffic_limit_bytes = num("traffic_limit_bytes");
    g.device_limit = num("device_limit");
    g.plan_name = str("name");
    g.plan_code = str("public_code");
    if (auto it = d.FindMember("plan_id"); it != d.MemberEnd() && it->value.IsInt64()) g.plan_id = it->value.GetInt64();
    return g;
}

}  // namespace cabinet
