#include "db/catalog_admin_repo.hpp"
#include "db/prepared.hpp"

namespace cabinet {

std::vector<AdminPlan> admin_plans(pqxx::transaction_base& txn, const std::optional<std::string>& code) {
    std::vector<AdminPlan> out;
    for (const auto& r : exec_prepared(txn, "admin_plans", code)) {
        const auto id = r["id"].as<int64_t>();
        if (out.empty() || out.back().id != id) {
            AdminPlan p;
            p.id = id;
            p.code = r["public_code"].c_str();
            p.name = r["name"].c_str();
            p.description = r["description"].c_str();
            p.traffic_limit_bytes = r["traffic_limit_bytes"].is_null() ? 0 : r["traffic_limit_bytes"].as<int64_t>();
            p.traffic_limit_gb = r["traffic_limit_gb"].as<int64_t>();
            p.device_limit = r["device_limit"].as<int64_t>();
            p.sort_order = r["sort_order"].as<int64_t>();
            p.is_active = r["is_active"].as<bool>();
            out.push_back(std::move(p));
        }
        if (!r["days"].is_null())
            out.back().durations.push_back(
                {r["days"].as<int64_t>(), r["months"].as<int64_t>(), r["price_minor"].as<int64_t>()});
    }
    return out;
}

std::optional<int64_t> lock_plan(pqxx::transaction_base& txn, const std::string& code) {
    const auto r = exec_prepared(txn, "admin_plan_lock", code);
    if (r.empty()) return std::nullopt;
    return r[0][0].as<int64_t>();
}

bool upsert_plan(pqxx::transaction_base& txn, const PlanChange& c) {
    return exec_prepared1(txn, "admin_plan_upsert", c.code, c.name, c.description, c.traffic_gb, c.device_limit, c.sort_order,
                          c.is_active)["inserted"].as<bool>();
}

void upsert_plan_price(pqxx::transaction_base& txn, int64_t plan_id, const AdminDuration& d) {
    exec_prepared0(txn, "admin_plan_price_upsert", plan_id, d.days, d.months, d.price_minor);
}

bool delete_plan_price(pqxx::transaction_base& txn, int64_t plan_id, int64_t days) {
    return !exec_prepared(txn, "admin_plan_price_delete", plan_id, days).empty();
}

std::vector<AdminSale> admin_sales(pqxx::transaction_base& txn, const std::optional<std::string>& name) {
    std::vector<AdminSale> out;
    for (const auto& r : exec_prepared(txn, "admin_sales", name))
        out.push_back({r["name"].c_str(), r["discount_pct"].as<int64_t>(), r["starts_at"].as<int64_t>(),
                       r["ends_at"].as<int64_t>(), r["running"].as<bool>()});
    return out;
}

bool upsert_sale(pqxx::transaction_base& txn, const std::string& name, int64_t discount_pct, int64_t starts_at,
                 int64_t ends_at) {
    // Not a prepared statement: PostgreSQL prepares no LOCK.
    txn.exec0("LOCK TABLE sales IN SHARE ROW EXCLUSIVE MODE");
    if (!exec_prepared(txn, "admin_sale_update", name, discount_pct, starts_at, ends_at).empty()) return false;
    exec_prepared0(txn, "admin_sale_insert", name, discount_pct, starts_at, ends_at);
    return true;
}

bool end_sale(pqxx::transaction_base& txn, const std::string& name) {
    return !exec_prepared(txn, "admin_sale_end", name).empty();
}

AdminConstructor admin_constructor(pqxx::transaction_base& txn) {
    AdminConstructor out;
    for (const auto& r : exec_prepared(txn, "admin_constructor")) {
        AdminConstructorItem item{r["amount"].as<int64_t>(), r["months"].is_null() ? 0 : r["months"].as<int64_t>(),
                                  r["price_minor"].as<int64_t>(), r["is_active"].as<bool>()};
        (std::string_view(r["kind"].c_str()) == "period" ? out.periods : out.packs).push_back(item);
    }
    return out;
}

void upsert_constructor_period(pqxx::transaction_base& txn, int64_t days, int64_t months, int64_t price_minor) {
    exec_prepared0(txn, "admin_constructor_period_upsert", days, months, price_minor);
}

void upsert_constructor_pack(pqxx::transaction_base& txn, int64_t gb, int64_t price_minor) {
    exec_prepared0(txn, "admin_constructor_pack_upsert", gb, price_minor);
}

bool deactivate_constructor_item(pqxx::transaction_base& txn, bool period, int64_t amount) {
    return !exec_prepared(txn, period ? StatementName("admin_constructor_period_off") : StatementName("admin_constructor_pack_off"), amount).empty();
}

std::vector<AdminPromoGroup> admin_promo_groups(pqxx::transaction_base& txn) {
    std::vector<AdminPromoGroup> out;
    for (const auto& r : exec_prepared(txn, "admin_promo_groups"))
        out.push_back({r["name"].c_str(), r["discount_pct"].as<int64_t>(), r["members"].as<int64_t>()});
    return out;
}

void upsert_promo_group(pqxx::transaction_base& txn, const std::string& name, int64_t discount_pct) {
    exec_prepared0(txn, "admin_promo_group_upsert", name, discount_pct);
}

void set_app_config_column(pqxx::transaction_base& txn, const std::string& column, const std::string& value) {
    exec_prepared0(txn, "admin_app_config_ensure");
    exec_prepared0(txn, "admin_app_config_set_column", column, value);
}

void set_app_config_landing(pqxx::transaction_base& txn, const std::string& key, const std::string& json_value) {
    exec_prepared0(txn, "admin_app_config_ensure");
    exec_prepared0(txn, "admin_app_config_set_landing", key, json_value);
}

void set_app_config_ui(pqxx::transaction_base& txn, const std::string& ui_json) {
    exec_prepared0(txn, "admin_app_config_ensure");
    exec_prepared0(txn, "admin_app_config_set_ui", ui_json);
}

}  // namespace cabinet
