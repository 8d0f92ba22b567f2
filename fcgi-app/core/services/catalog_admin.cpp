#include "services/catalog_admin.hpp"

#include "db/audit_repo.hpp"
#include "errors.hpp"
#include "services/field_checks.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

AdminPlan plan_of(pqxx::transaction_base& txn, const std::string& code) {
    auto plans = admin_plans(txn, code);
    if (plans.empty()) throw not_found("no plan with code " + code);
    return std::move(plans.front());
}

int64_t locked_plan(pqxx::transaction_base& txn, const std::string& code) {
    const auto id = lock_plan(txn, code);
    if (!id) throw not_found("no plan with code " + code);
    return *id;
}

std::string plan_json(pqxx::transaction_base& txn, const std::string& code) {
    return json_text(write_admin_plan, plan_of(txn, code));
}

AdminSale sale_of(pqxx::transaction_base& txn, const std::string& name) {
    auto sales = admin_sales(txn, name);
    if (sales.empty()) throw not_found("no sale named " + name);
    return std::move(sales.front());
}

}  // namespace

void audit_catalog_change(pqxx::work& txn, const std::string& actor, const std::string& command,
                          const std::vector<std::string>& args, std::string_view before, std::string_view after) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("args");
    w.StartArray();
    for (const auto& a : args) write_string(w, a);
    w.EndArray();
    const auto raw = [&](const char* key, std::string_view json) {
        w.Key(key);
        if (json.empty()) w.Null();
        else w.RawValue(json.data(), json.size(), rapidjson::kObjectType);
    };
    raw("before", before);
    raw("after", after);
    w.EndObject();
    write_audit(txn, actor, "catalog." + command, args.empty() ? "" : args[0], {buf.GetString(), buf.GetSize()});
}

std::vector<AdminPlan> list_plans(pqxx::transaction_base& txn) { return admin_plans(txn); }

PlanPut put_plan(pqxx::work& txn, const PlanChange& c, const std::string& actor) {
    check_text("code", c.code, 1, 64);
    if (c.name) check_text("name", *c.name, 1, 200);
    if (c.description) check_text("description", *c.description, 0, 2000);
    check_int("traffic_limit_gb", c.traffic_gb, 0, 1'000'000);
    check_int("device_limit", c.device_limit, 1, 1000);
    check_int("sort_order", c.sort_order, -1'000'000, 1'000'000);
    const bool exists = lock_plan(txn, c.code).has_value();
    if (!exists && !c.name) throw not_found("no plan with code " + c.code);  // a name would create it

    const bool details = c.name || c.description || c.traffic_gb || c.device_limit || c.sort_order;
    if (!details && !c.is_active) return {plan_of(txn, c.code), false};  // nothing to change: nothing written
    const std::string before = exists ? plan_json(txn, c.code) : std::string();
    const bool created = upsert_plan(txn, c);
    const std::string after = plan_json(txn, c.code);

    // One entry for the plan's details, one for switching it on or off: each a command.
    if (details) {
        std::vector<std::string> args{"create", "--code", c.code};
        const auto add = [&](const char* option, const std::string& v) {
            args.emplace_back(option);
            args.push_back(v);
        };
        if (c.name) add("--name", *c.name);
        if (c.description) add("--description", *c.description);
        if (c.traffic_gb) add("--traffic-gb", std::to_string(*c.traffic_gb));
        if (c.device_limit) add("--devices", std::to_string(*c.device_limit));
        if (c.sort_order) add("--sort", std::to_string(*c.sort_order));
        audit_catalog_change(txn, actor, "plan", args, before, after);
    }
    if (c.is_active)
        audit_catalog_change(txn, actor, "plan", {*c.is_active ? "enable" : "disable", "--code", c.code}, before, after);
    return {plan_of(txn, c.code), created};
}

AdminPlan put_plan_price(pqxx::work& txn, const std::string& code, const AdminDuration& d, const std::string& actor) {
    check_int("days", d.days, 1, 36500);
    check_int("months", d.months, 0, 1200);
    check_int("price_minor", d.price_minor, 0, kMaxMinor);
    const int64_t plan = locked_plan(txn, code);
    const std::string before = plan_json(txn, code);
    upsert_plan_price(txn, plan, d);
    audit_catalog_change(txn, actor, "plan",
                         {"price", "--code", code, "--days", std::to_string(d.days), "--months", std::to_string(d.months),
                          "--price", std::to_string(d.price_minor)},
                         before, plan_json(txn, code));
    return plan_of(txn, code);
}

AdminPlan remove_plan_price(pqxx::work& txn, const std::string& code, int64_t days, const std::string& actor) {
    const int64_t plan = locked_plan(txn, code);
    const std::string before = plan_json(txn, code);
    if (!delete_plan_price(txn, plan, days))
        throw not_found("plan " + code + " has no price for " + std::to_string(days) + " days");
    audit_catalog_change(txn, actor, "plan", {"unprice", "--code", code, "--days", std::to_string(days)}, before,
                         plan_json(txn, code));
    return plan_of(txn, code);
}

std::vector<AdminSale> list_sales(pqxx::transaction_base& txn) { return admin_sales(txn); }

SalePut put_sale(pqxx::work& txn, const SaleChange& c, const std::string& actor) {
    check_text("name", c.name, 1, 100);
    check_int("discount_pct", c.discount_pct, 1, 100);
    if (c.ends_at <= c.starts_at) throw ApiError(422, "ends_at must be after starts_at");
    const auto existing = admin_sales(txn, c.name);
    const std::string before = existing.empty() ? std::string() : json_text(write_admin_sale, existing.front());
    const bool created = upsert_sale(txn, c.name, c.discount_pct, c.starts_at, c.ends_at);
    const AdminSale after = sale_of(txn, c.name);
    audit_catalog_change(txn, actor, "sale",
                         {"create", "--name", c.name, "--discount", std::to_string(c.discount_pct), "--from",
                          iso8601_utc(c.starts_at), "--until", iso8601_utc(c.ends_at)},
                         before, json_text(write_admin_sale, after));
    return {after, created};
}

AdminSale end_sale_now(pqxx::work& txn, const std::string& name, const std::string& actor) {
    const AdminSale before = sale_of(txn, name);  // 404 first
    if (!end_sale(txn, name)) return before;
    const AdminSale after = sale_of(txn, name);
    audit_catalog_change(txn, actor, "sale", {"end", "--name", name}, json_text(write_admin_sale, before),
                         json_text(write_admin_sale, after));
    return after;
}

AdminConstructor constructor_catalog(pqxx::transaction_base& txn) { return admin_constructor(txn); }

AdminConstructor put_constructor_period(pqxx::work& txn, int64_t days, int64_t months, int64_t price_minor,
                                        const std::string& actor) {
    check_int("days", days, 1, 36500);
    check_int("months", months, 0, 1200);
    check_int("price_minor", price_minor, 0, kMaxMinor);
    const std::string before = json_text(write_admin_constructor, admin_constructor(txn));
    upsert_constructor_period(txn, days, months, price_minor);
    const AdminConstructor after = admin_constructor(txn);
    audit_catalog_change(txn, actor, "constructor",
                         {"period", "--days", std::to_string(days), "--months", std::to_string(months), "--price",
                          std::to_string(price_minor)},
                         before, json_text(write_admin_constructor, after));
    return after;
}

AdminConstructor put_constructor_pack(pqxx::work& txn, int64_t gb, int64_t price_minor, const std::string& actor) {
    check_int("gb", gb, 0, 1'000'000);
    check_int("price_minor", price_minor, 0, kMaxMinor);
    const std::string before = json_text(write_admin_constructor, admin_constructor(txn));
    upsert_constructor_pack(txn, gb, price_minor);
    const AdminConstructor after = admin_constructor(txn);
    audit_catalog_change(txn, actor, "constructor", {"pack", "--gb", std::to_string(gb), "--price", std::to_string(price_minor)},
                         before, json_text(write_admin_constructor, after));
    return after;
}

AdminConstructor retire_constructor_item(pqxx::work& txn, ConstructorItemKind kind, int64_t amount, const std::string& actor) {
    const bool period = kind == ConstructorItemKind::period;
    const std::string before = json_text(write_admin_constructor, admin_constructor(txn));
    if (!deactivate_constructor_item(txn, period, amount))
        throw not_found(period ? "no offered period of " + std::to_string(amount) + " days"
                               : "no offered pack of " + std::to_string(amount) + " GB");
    const AdminConstructor after = admin_constructor(txn);
    audit_catalog_change(txn, actor, "constructor",
                         {period ? "period-off" : "pack-off", period ? "--days" : "--gb", std::to_string(amount)}, before,
                         json_text(write_admin_constructor, after));
    return after;
}

std::vector<AdminPromoGroup> list_promo_groups(pqxx::transaction_base& txn) { return admin_promo_groups(txn); }

void put_promo_group(pqxx::work& txn, const std::string& name, int64_t discount_pct, const std::string& actor) {
    check_text("name", name, 1, 100);
    check_int("discount_pct", discount_pct, 0, 100);
    const auto group_json = [&]() -> std::string {
        for (const auto& g : admin_promo_groups(txn))
            if (g.name == name) return json_text(write_admin_promo_group, g);
        return {};
    };
    const std::string before = group_json();
    upsert_promo_group(txn, name, discount_pct);
    audit_catalog_change(txn, actor, "promo-group", {"create", "--name", name, "--discount", std::to_string(discount_pct)},
                         before, group_json());
}

// The admin API's: each in a transaction of its own.

std::vector<AdminPlan> list_plans(Db& db) { return db.read([](auto& txn) { return list_plans(txn); }); }

PlanPut put_plan(Db& db, const PlanChange& c, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return put_plan(txn, c, actor); });
}

AdminPlan put_plan_price(Db& db, const std::string& code, const AdminDuration& d, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return put_plan_price(txn, code, d, actor); });
}

AdminPlan remove_plan_price(Db& db, const std::string& code, int64_t days, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return remove_plan_price(txn, code, days, actor); });
}

std::vector<AdminSale> list_sales(Db& db) { return db.read([](auto& txn) { return list_sales(txn); }); }

SalePut put_sale(Db& db, const SaleChange& c, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return put_sale(txn, c, actor); });
}

AdminSale end_sale_now(Db& db, const std::string& name, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return end_sale_now(txn, name, actor); });
}

AdminConstructor constructor_catalog(Db& db) { return db.read([](auto& txn) { return constructor_catalog(txn); }); }

AdminConstructor put_constructor_period(Db& db, const AdminDuration& p, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return put_constructor_period(txn, p.days, p.months, p.price_minor, actor); });
}

AdminConstructor put_constructor_pack(Db& db, int64_t gb, int64_t price_minor, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return put_constructor_pack(txn, gb, price_minor, actor); });
}

AdminConstructor retire_constructor_item(Db& db, ConstructorItemKind kind, int64_t amount, const std::string& actor) {
    return db.write([&](pqxx::work& txn) { return retire_constructor_item(txn, kind, amount, actor); });
}

std::vector<AdminPromoGroup> list_promo_groups(Db& db) { return db.read([](auto& txn) { return list_promo_groups(txn); }); }

std::optional<AdminPromoGroup> put_promo_group(Db& db, const std::string& name, int64_t discount_pct,
                                               const std::string& actor) {
    const auto groups = db.write([&](pqxx::work& txn) {
        put_promo_group(txn, name, discount_pct, actor);
        return list_promo_groups(txn);
    });
    for (const auto& g : groups)
        if (g.name == name) return g;
    return std::nullopt;
}

}  // namespace cabinet
