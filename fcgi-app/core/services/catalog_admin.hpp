#pragma once
// Changing the shop's catalogue, the same for `cabinetctl plan|sale|constructor|
// promo-group` and the
// admin API (/api/admin/plans, /sales, /constructor; docs/operations.md "Settings"): each
// input is checked here (ApiError 404 for an unknown plan or sale, 422 for a value out of
// range, with a detail naming the field; nothing is written then), stored, and audited in
// the same transaction as `catalog.<command>` with the cabinetctl command line
// that makes the same change, whoever the actor. The tables' trigger (sql 0020) tells every
// pool process within a second.
// Each takes a transaction, for cabinetctl, or `Db&` for the admin API: then it opens its
// own, a read for a list and one write for a change, so a change and its audit commit as one.
#include <pqxx/pqxx>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/catalog_admin_repo.hpp"
#include "db/db.hpp"
#include "util/json.hpp"

namespace cabinet {

struct PlanPut {
    AdminPlan plan;  // as it now is
    bool created = false;
};

// A sale by its name: created when missing, else its discount and window replaced.
struct SaleChange {
    std::string name;
    int64_t discount_pct = 0;
    int64_t starts_at = 0;  // unix seconds
    int64_t ends_at = 0;
};

struct SalePut {
    AdminSale sale;
    bool created = false;
};

std::vector<AdminPlan> list_plans(pqxx::transaction_base& txn);
std::vector<AdminPlan> list_plans(Db& db);
PlanPut put_plan(pqxx::work& txn, const PlanChange& change, const std::string& actor);
PlanPut put_plan(Db& db, const PlanChange& change, const std::string& actor);
// The price of `d.days` days of plan `code` (added or replaced); 404 for an unknown plan.
AdminPlan put_plan_price(pqxx::work& txn, const std::string& code, const AdminDuration& d, const std::string& actor);
AdminPlan put_plan_price(Db& db, const std::string& code, const AdminDuration& d, const std::string& actor);
// Takes the price of `days` days off plan `code` (that duration is no longer sold); 404 for
// an unknown plan or a duration it does not have.
AdminPlan remove_plan_price(pqxx::work& txn, const std::string& code, int64_t days, const std::string& actor);
AdminPlan remove_plan_price(Db& db, const std::string& code, int64_t days, const std::string& actor);

std::vector<AdminSale> list_sales(pqxx::transaction_base& txn);
std::vector<AdminSale> list_sales(Db& db);
SalePut put_sale(pqxx::work& txn, const SaleChange& change, const std::string& actor);
SalePut put_sale(Db& db, const SaleChange& change, const std::string& actor);
// Ends the sale now (one not begun never runs); 404 when there is no sale of that name. One
// already over stays as it is, and no audit entry is written.
AdminSale end_sale_now(pqxx::work& txn, const std::string& name, const std::string& actor);
AdminSale end_sale_now(Db& db, const std::string& name, const std::string& actor);

AdminConstructor constructor_catalog(pqxx::transaction_base& txn);
AdminConstructor constructor_catalog(Db& db);
// A period of `days` days or a pack of `gb` GB (0 = unlimited): added or replaced, active.
AdminConstructor put_constructor_period(pqxx::work& txn, int64_t days, int64_t months, int64_t price_minor,
                                        const std::string& actor);
// `period`: its days, months and price, as a plan's duration has them.
AdminConstructor put_constructor_period(Db& db, const AdminDuration& period, const std::string& actor);
AdminConstructor put_constructor_pack(pqxx::work& txn, int64_t gb, int64_t price_minor, const std::string& actor);
AdminConstructor put_constructor_pack(Db& db, int64_t gb, int64_t price_minor, const std::string& actor);
// Stops offering a period (days) or a pack (GB); its row stays for the record and a PUT
// offers it again. 404 when none such is offered.
enum class ConstructorItemKind { period, pack };
AdminConstructor retire_constructor_item(pqxx::work& txn, ConstructorItemKind kind, int64_t amount, const std::string& actor);
AdminConstructor retire_constructor_item(Db& db, ConstructorItemKind kind, int64_t amount, const std::string& actor);

std::vector<AdminPromoGroup> list_promo_groups(pqxx::transaction_base& txn);
std::vector<AdminPromoGroup> list_promo_groups(Db& db);
// A promo group's discount (0..100 %), the group created when missing.
void put_promo_group(pqxx::work& txn, const std::string& name, int64_t discount_pct, const std::string& actor);
// The same, answering with the group as it then is (members counted), read in that
// transaction; nullopt only if the groups read back lack it, which the upsert rules out.
std::optional<AdminPromoGroup> put_promo_group(Db& db, const std::string& name, int64_t discount_pct,
                                               const std::string& actor);

// The admin API's JSON of each (services/catalog_admin_json.cpp), which the audit log's
// before and after of a change are too.
void write_admin_plan(JsonWriter& w, const AdminPlan& p);
void write_admin_sale(JsonWriter& w, const AdminSale& s);
void write_admin_constructor(JsonWriter& w, const AdminConstructor& c);
void write_admin_promo_group(JsonWriter& w, const AdminPromoGroup& g);

// Appends the audit entry of a catalogue change: action `catalog.<command>`, entity the
// command's first word, payload {"args": [...], "before": ..., "after": ...}: the cabinetctl
// arguments of the change, and what it changed as the admin API shows it (JSON object
// texts; empty: null, e.g. nothing before a creation).
void audit_catalog_change(pqxx::work& txn, const std::string& actor, const std::string& command,
                          const std::vector<std::string>& args, std::string_view before = {},
                          std::string_view after = {});

}  // namespace cabinet
