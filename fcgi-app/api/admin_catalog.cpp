// The shop's catalogue for the admin screen (services/catalog_admin.hpp; docs/operations.md
// "Settings"). Admins only (AuthKind::admin), like /api/admin/settings; every write is
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

// Object members, one line each.
void put_int(JsonWriter& w, const char* key, int64_t v) {
    w.Key(key);
    w.Int64(v);
}
void put_bool(JsonWriter& w, const char* key, bool v) {
    w.Key(key);
    w.Bool(v);
}
void put_text(JsonWriter& w, const char* key, std::string_view v) {
    w.Key(key);
    write_string(w, v);
}

// {"items": [...]}, each item written by `write_item`.
template <typename T, typename F>
void write_items(JsonWriter& w, const std::vector<T>& items, F write_item) {
    w.StartObject();
    w.Key("items");
    w.StartArray();
    for (const auto& item : items) write_item(w, item);
    w.EndArray();
    w.EndObject();
}

void write_plan(JsonWriter& w, const AdminPlan& p) {
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

void write_sale(JsonWriter& w, const AdminSale& s) {
    w.StartObject();
    put_text(w, "name", s.name);
    put_int(w, "discount_pct", s.discount_pct);
    put_text(w, "starts_at", iso8601_utc(s.starts_at));
    put_text(w, "ends_at", iso8601_utc(s.ends_at));
    put_bool(w, "running", s.running);
    w.EndObject();
}

void write_constructor(JsonWriter& w, const AdminConstructor& c) {
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

}  // namespace

void get_admin_plans(Exchange& ex) {
    write_items(ex.resp.json(), ex.io.db.read([](auto& txn) { return list_plans(txn); }), write_plan);
}

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
    const std::string by = admin_actor(ex);
    const PlanPut put = ex.io.db.write([&](pqxx::work& txn) { return put_plan(txn, c, by); });
    if (put.created) ex.resp.status = 201;
    write_plan(ex.resp.json(), put.plan);
}

void put_admin_plan_duration(Exchange& ex) {
    const JsonBody body(ex.req);
    const std::string& code = ex.req.path_params.at(0);
    const AdminDuration d{path_int(ex, 1, "days"), body_int(body, "months"), body_int(body, "price_minor")};
    const std::string by = admin_actor(ex);
    const AdminPlan p = ex.io.db.write([&](pqxx::work& txn) { return put_plan_price(txn, code, d, by); });
    write_plan(ex.resp.json(), p);
}

void get_admin_sales(Exchange& ex) {
    write_items(ex.resp.json(), ex.io.db.read([](auto& txn) { return list_sales(txn); }), write_sale);
}

void put_admin_sale(Exchange& ex) {
    const JsonBody body(ex.req);
    const SaleChange c{ex.req.path_params.at(0), body_int(body, "discount_pct"), body_time(body, "starts_at"),
                       body_time(body, "ends_at")};
    const std::string by = admin_actor(ex);
    const SalePut put = ex.io.db.write([&](pqxx::work& txn) { return put_sale(txn, c, by); });
    if (put.created) ex.resp.status = 201;
    write_sale(ex.resp.json(), put.sale);
}

void post_admin_sale_end(Exchange& ex) {
    const std::string& name = ex.req.path_params.at(0);
    const std::string by = admin_actor(ex);
    write_sale(ex.resp.json(), ex.io.db.write([&](pqxx::work& txn) { return end_sale_now(txn, name, by); }));
}

void get_admin_constructor(Exchange& ex) {
    write_constructor(ex.resp.json(), ex.io.db.read([](auto& txn) { return constructor_catalog(txn); }));
}

void put_admin_constructor_period(Exchange& ex) {
    const JsonBody body(ex.req);
    const int64_t days = path_int(ex, 0, "days"), months = body_int(body, "months"), price = body_int(body, "price_minor");
    const std::string by = admin_actor(ex);
    write_constructor(ex.resp.json(), ex.io.db.write([&](pqxx::work& txn) {
        return put_constructor_period(txn, days, months, price, by);
    }));
}

void put_admin_constructor_pack(Exchange& ex) {
    const JsonBody body(ex.req);
    const int64_t gb = path_int(ex, 0, "gb"), price = body_int(body, "price_minor");
    const std::string by = admin_actor(ex);
    write_constructor(ex.resp.json(), ex.io.db.write([&](pqxx::work& txn) { return put_constructor_pack(txn, gb, price, by); }));
}

}  // namespace cabinet::api
