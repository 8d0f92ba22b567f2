// The shop's catalogue for the admin screen (services/catalog_admin.hpp; docs/operations.md
// "Settings"). Owners change, every staff role reads (routes.cpp); every write is
// audited with the admin as actor, exactly as the matching cabinetctl command, and is in
// every pool process's answers within a second. PUTs create or replace by the natural key,
// so a repeat converges. A value out of range is a 422 naming the field (nothing written);
// an unknown plan or sale a 404; a body of the wrong shape a 400.
//   GET  /api/admin/plans                          every plan, active or not, with its prices
//   PUT  /api/admin/plans/{code}                   {name, description, traffic_limit_gb,
//                                                  device_limit, sort_order, is_active}: each
//                                                  optional (name required to create)
//   PUT  /api/admin/plans/{code}/durations/{days}  {months, price_minor}: the price of a duration
//   GET  /api/admin/sales                          every sale, past, running and to come
//   PUT  /api/admin/sales/{name}                   {discount_pct, starts_at, ends_at}
//   POST /api/admin/sales/{name}/end               ends it now
//   GET  /api/admin/constructor                    periods and traffic packs
//   PUT  /api/admin/constructor/periods/{days}     {months, price_minor}
//   PUT  /api/admin/constructor/packs/{gb}         {price_minor}; gb 0 = unlimited
//   DELETE /api/admin/plans/{code}/durations/{days}  that duration no longer sold
//   DELETE /api/admin/constructor/periods/{days}, /packs/{gb}  no longer offered
//   GET  /api/admin/promo-groups                   {items: [{name, discount_pct, members}]}
//   PUT  /api/admin/promo-groups/{name}            {discount_pct}: created when missing
#include <limits>

#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/catalog_admin.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

constexpr int64_t kAnyInt = std::numeric_limits<int64_t>::max();

// An integer of the body; its range is the service's to check (a 422 naming it).
int64_t body_int(const rapidjson::Value& body, const char* field) { return require_int(body, field, -kAnyInt, kAnyInt); }
std::optional<int64_t> optional_int(const rapidjson::Value& body, const char* field) {
    if (!has_field(body, field)) return std::nullopt;
    return body_int(body, field);
}

// An integer placeholder of the path, e.g. the {days} of /durations/{days}.
int64_t path_int(Exchange& ex, size_t i, const char* name) {
    int64_t v = 0;
    if (!parse_int64(ex.req.path_params.at(i), v)) throw bad_request(std::string(name) + " must be an integer");
    return v;
}

int64_t body_time(const rapidjson::Value& body, const char* field) {
    const std::string text = require_string(body, field, 1, 40);
    const auto t = parse_iso8601(text);
    if (!t) throw bad_request(std::string(field) + " must be an ISO-8601 instant, e.g. 2026-01-31T00:00:00Z");
    return *t;
}

// {"items": [...]}, each item written by `write_item`.
template <typename T, typename F>
void write_items(JsonWriter& w, const std::vector<T>& items, F write_item) {
    JsonObject o(w);
    auto list = o.array("items");
    for (const auto& item : items) write_item(w, item);
}

}  // namespace

void get_admin_plans(Exchange& ex) { write_items(ex.resp.json(), list_plans(ex.io.db), write_admin_plan); }

void put_admin_plan(Exchange& ex) {
    const JsonBody body(ex.req);
    PlanChange c;
    c.code = ex.req.path_params.at(0);
    c.name = optional_string(body, "name", 10'000);
    c.description = optional_string(body, "description", 10'000);
    c.traffic_gb = optional_int(body, "traffic_limit_gb");
    c.device_limit = optional_int(body, "device_limit");
    c.sort_order = optional_int(body, "sort_order");
    if (has_field(body, "is_active")) c.is_active = require_bool(body, "is_active");
    const PlanPut put = put_plan(ex.io.db, c, admin_actor(ex));
    if (put.created) ex.resp.status = 201;
    write_admin_plan(ex.resp.json(), put.plan);
}

void put_admin_plan_duration(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string& code = ex.req.path_params.at(0);
    const AdminDuration d{path_int(ex, 1, "days"), body_int(body, "months"), body_int(body, "price_minor")};
    write_admin_plan(ex.resp.json(), put_plan_price(ex.io.db, code, d, admin_actor(ex)));
}

void delete_admin_plan_duration(Exchange& ex) {
    const std::string& code = ex.req.path_params.at(0);
    const int64_t days = path_int(ex, 1, "days");
    write_admin_plan(ex.resp.json(), remove_plan_price(ex.io.db, code, days, admin_actor(ex)));
}

void get_admin_sales(Exchange& ex) { write_items(ex.resp.json(), list_sales(ex.io.db), write_admin_sale); }

void put_admin_sale(Exchange& ex) {
    const JsonBody body(ex.req);
    const SaleChange c{ex.req.path_params.at(0), body_int(body, "discount_pct"), body_time(body, "starts_at"),
                       body_time(body, "ends_at")};
    const SalePut put = put_sale(ex.io.db, c, admin_actor(ex));
    if (put.created) ex.resp.status = 201;
    write_admin_sale(ex.resp.json(), put.sale);
}

void post_admin_sale_end(Exchange& ex) {
    write_admin_sale(ex.resp.json(), end_sale_now(ex.io.db, ex.req.path_params.at(0), admin_actor(ex)));
}

void get_admin_constructor(Exchange& ex) { write_admin_constructor(ex.resp.json(), constructor_catalog(ex.io.db)); }

void put_admin_constructor_period(Exchange& ex) {
    const JsonBody body(ex.req);
    const AdminDuration period{path_int(ex, 0, "days"), body_int(body, "months"), body_int(body, "price_minor")};
    write_admin_constructor(ex.resp.json(), put_constructor_period(ex.io.db, period, admin_actor(ex)));
}

void put_admin_constructor_pack(Exchange& ex) {
    const JsonBody body(ex.req);
    const int64_t gb = path_int(ex, 0, "gb"), price = body_int(body, "price_minor");
    write_admin_constructor(ex.resp.json(), put_constructor_pack(ex.io.db, gb, price, admin_actor(ex)));
}

void delete_admin_constructor_period(Exchange& ex) {
    const int64_t days = path_int(ex, 0, "days");
    const AdminConstructor c = retire_constructor_item(ex.io.db, ConstructorItemKind::period, days, admin_actor(ex));
    write_admin_constructor(ex.resp.json(), c);
}

void delete_admin_constructor_pack(Exchange& ex) {
    const int64_t gb = path_int(ex, 0, "gb");
    const AdminConstructor c = retire_constructor_item(ex.io.db, ConstructorItemKind::pack, gb, admin_actor(ex));
    write_admin_constructor(ex.resp.json(), c);
}

void get_admin_promo_groups(Exchange& ex) {
    write_items(ex.resp.json(), list_promo_groups(ex.io.db), write_admin_promo_group);
}

void put_admin_promo_group(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string& name = ex.req.path_params.at(0);
    const int64_t pct = body_int(body, "discount_pct");
    if (const auto g = put_promo_group(ex.io.db, name, pct, admin_actor(ex)))
        write_admin_promo_group(ex.resp.json(), *g);
}

}  // namespace cabinet::api
