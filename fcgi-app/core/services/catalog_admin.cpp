#include "services/catalog_admin.hpp"

#include "db/audit_repo.hpp"
#include "errors.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

constexpr int64_t kMaxMinor = 1'000'000'000'000LL;  // 10^10 currency units: far above any real price

// The checks name the admin API's fields; cabinetctl says its option names instead.
void check_int(const char* field, int64_t v, int64_t min, int64_t max) {
    if (v < min || v > max)
        throw ApiError(422, std::string(field) + " must be an integer in " + std::to_string(min) + ".." + std::to_string(max));
}

void check_int(const char* field, const std::optional<int64_t>& v, int64_t min, int64_t max) {
    if (v) check_int(field, *v, min, max);
}

void check_text(const char* field, const std::string& v, size_t min, size_t max) {
    const size_t n = utf8_length(v);
    if (n < min || n > max)
        throw ApiError(422, std::string(field) + " must be " + std::to_string(min) + ".." + std::to_string(max) +
                                " characters");
}

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

AdminSale sale_of(pqxx::transaction_base& txn, const std::string& name) {
    auto sales = admin_sales(txn, name);
    if (sales.empty()) throw not_found("no sale named " + name);
    return std::move(sales.front());
}

}  // namespace

void audit_catalog_change(pqxx::work& txn, const std::string& actor, const std::string& command,
                          const std::vector<std::string>& args) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("args");
    w.StartArray();
    for (const auto& a : args) write_string(w, a);
    w.EndArray();
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
    const bool created = upsert_plan(txn, c);

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
        audit_catalog_change(txn, actor, "plan", args);
    }
    if (c.is_active) audit_catalog_change(txn, actor, "plan", {*c.is_active ? "enable" : "disable", "--code", c.code});
    return {plan_of(txn, c.code), created};
}

AdminPlan put_plan_price(pqxx::work& txn, const std::string& code, const AdminDuration& d, const std::string& actor) {
    check_int("days", d.days, 1, 36500);
    check_int("months", d.months, 0, 1200);
    check_int("price_minor", d.price_minor, 0, kMaxMinor);
    upsert_plan_price(txn, locked_plan(txn, code), d);
    audit_catalog_change(txn, actor, "plan",
                         {"price", "--code", code, "--days", std::to_string(d.days), "--months", std::to_string(d.months),
                          "--price", std::to_string(d.price_minor)});
    return plan_of(txn, code);
}

std::vector<AdminSale> list_sales(pqxx::transaction_base& txn) { return admin_sales(txn); }

SalePut put_sale(pqxx::work& txn, const SaleChange& c, const std::string& actor) {
    check_text("name", c.name, 1, 100);
    check_int("discount_pct", c.discount_pct, 1, 100);
    if (c.ends_at <= c.starts_at) throw ApiError(422, "ends_at must be after starts_at");
    const bool created = upsert_sale(txn, c.name, c.discount_pct, c.starts_at, c.ends_at);
    audit_catalog_change(txn, actor, "sale",
                         {"create", "--name", c.name, "--discount", std::to_string(c.discount_pct), "--from",
                          iso8601_utc(c.starts_at), "--until", iso8601_utc(c.ends_at)});
    return {sale_of(txn, c.name), created};
}

AdminSale end_sale_now(pqxx::work& txn, const std::string& name, const std::string& actor) {
    sale_of(txn, name);  // 404 first
    if (end_sale(txn, name)) audit_catalog_change(txn, actor, "sale", {"end", "--name", name});
    return sale_of(txn, name);
}

AdminConstructor constructor_catalog(pqxx::transaction_base& txn) { return admin_constructor(txn); }

AdminConstructor put_constructor_period(pqxx::work& txn, int64_t days, int64_t months, int64_t price_minor,
                                        const std::string& actor) {
    check_int("days", days, 1, 36500);
    check_int("months", months, 0, 1200);
    check_int("price_minor", price_minor, 0, kMaxMinor);
    upsert_constructor_period(txn, days, months, price_minor);
    audit_catalog_change(txn, actor, "constructor",
                         {"period", "--days", std::to_string(days), "--months", std::to_string(months), "--price",
                          std::to_string(price_minor)});
    return admin_constructor(txn);
}

AdminConstructor put_constructor_pack(pqxx::work& txn, int64_t gb, int64_t price_minor, const std::string& actor) {
    check_int("gb", gb, 0, 1'000'000);
    check_int("price_minor", price_minor, 0, kMaxMinor);
    upsert_constructor_pack(txn, gb, price_minor);
    audit_catalog_change(txn, actor, "constructor",
                         {"pack", "--gb", std::to_string(gb), "--price", std::to_string(price_minor)});
    return admin_constructor(txn);
}

std::vector<AdminPromoGroup> list_promo_groups(pqxx::transaction_base& txn) { return admin_promo_groups(txn); }

void put_promo_group(pqxx::work& txn, const std::string& name, int64_t discount_pct, const std::string& actor) {
    check_text("name", name, 1, 100);
    check_int("discount_pct", discount_pct, 0, 100);
    upsert_promo_group(txn, name, discount_pct);
    audit_catalog_change(txn, actor, "promo-group", {"create", "--name", name, "--discount", std::to_string(discount_pct)});
}

}  // namespace cabinet
