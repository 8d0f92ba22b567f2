#pragma once
// The owner's catalogue and texts as an admin edits them (statements in
// catalog_admin_statements.cpp). Writes check nothing themselves: services/catalog_admin.hpp
// and services/app_config_admin.hpp validate and audit. Every write bumps the catalogue
// version and notifies the pool (sql 0020).
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cabinet {

struct AdminDuration {
    int64_t days = 0;
    int64_t months = 0;
    int64_t price_minor = 0;
};

// A plan, active or not, with every duration it has.
struct AdminPlan {
    int64_t id = 0;
    std::string code;
    std::string name;
    std::string description;
    int64_t traffic_limit_bytes = 0;  // 0 = unlimited
    int64_t traffic_limit_gb = 0;     // the same in whole GiB, as an admin gives it
    int64_t device_limit = 1;
    int64_t sort_order = 0;
    bool is_active = true;
    std::vector<AdminDuration> durations;  // by days
};

// A plan by its code: created when missing (then `name` is required), else updated; what
// is left out keeps its value (or takes its default on a new plan); nothing given on an
// existing plan writes nothing. traffic_gb 0 = unlimited.
struct PlanChange {
    std::string code;
    std::optional<std::string> name, description;
    std::optional<int64_t> traffic_gb, device_limit, sort_order;
    std::optional<bool> is_active;
};

struct AdminSale {
    std::string name;
    int64_t discount_pct = 0;
    int64_t starts_at = 0;  // unix seconds
    int64_t ends_at = 0;
    bool running = false;
};

struct AdminConstructorItem {
    int64_t amount = 0;  // days of a period, GB of a pack (0 = unlimited)
    int64_t months = 0;  // periods only
    int64_t price_minor = 0;
    bool is_active = true;
};

struct AdminConstructor {
    std::vector<AdminConstructorItem> periods;  // by days
    std::vector<AdminConstructorItem> packs;    // by GB
};

struct AdminPromoGroup {
    std::string name;
    int64_t discount_pct = 0;
    int64_t members = 0;  // users in it
};

// Plans by sort order then id; `code` given: that one plan only (empty when none).
std::vector<AdminPlan> admin_plans(pqxx::transaction_base& txn, const std::optional<std::string>& code = std::nullopt);
// The plan's id, its row locked until the transaction ends; nullopt when no such plan.
std::optional<int64_t> lock_plan(pqxx::transaction_base& txn, const std::string& code);
// Returns whether the plan was created.
bool upsert_plan(pqxx::transaction_base& txn, const PlanChange& change);
void upsert_plan_price(pqxx::transaction_base& txn, int64_t plan_id, const AdminDuration& d);
// False when the plan had no price for that many days.
bool delete_plan_price(pqxx::transaction_base& txn, int64_t plan_id, int64_t days);

// Sales by start; `name` given: the sales of that name only.
std::vector<AdminSale> admin_sales(pqxx::transaction_base& txn, const std::optional<std::string>& name = std::nullopt);
// Edits the sale of that name, else adds it (sales.name is no key: the table is locked
// against a concurrent writer of the same name). Returns whether it was added.
bool upsert_sale(pqxx::transaction_base& txn, const std::string& name, int64_t discount_pct, int64_t starts_at,
                 int64_t ends_at);
// Ends a sale of that name that is not over yet; false when there was none.
bool end_sale(pqxx::transaction_base& txn, const std::string& name);

AdminConstructor admin_constructor(pqxx::transaction_base& txn);
void upsert_constructor_period(pqxx::transaction_base& txn, int64_t days, int64_t months, int64_t price_minor);
void upsert_constructor_pack(pqxx::transaction_base& txn, int64_t gb, int64_t price_minor);
// A period (days) or pack (GB) no longer offered; false when none such was offered.
bool deactivate_constructor_item(pqxx::transaction_base& txn, bool period, int64_t amount);

// Promo groups by name; a group is created or its discount replaced.
std::vector<AdminPromoGroup> admin_promo_groups(pqxx::transaction_base& txn);
void upsert_promo_group(pqxx::transaction_base& txn, const std::string& name, int64_t discount_pct);

// The app config row's theme column (title | greeting | accent_color | template) or a key
// under ui.landing (its JSON value); each bumps published_at.
void set_app_config_column(pqxx::transaction_base& txn, const std::string& column, const std::string& value);
void set_app_config_landing(pqxx::transaction_base& txn, const std::string& key, const std::string& json_value);
// Replaces everything of ui but its "landing" key with `ui_json` (an object without one).
void set_app_config_ui(pqxx::transaction_base& txn, const std::string& ui_json);

}  // namespace cabinet
