// The owner's customers (services/customer_search, customer_card, customer_actions;
// docs/api.md "Customers"). Reads are every staff role's; the export is the owner's and the
// viewer's; money and time actions are the owner's, the others also support's (routes.cpp).
//   GET  /api/admin/customers?q=&status=&promo_group=&joined_from=&joined_to=&cursor=&limit=
//        {items: [customer…], next_cursor}
//   GET  /api/admin/customers/export?(the same filters) → text/csv, streamed
//   GET  /api/admin/customers/{id} → the card
//   GET  /api/admin/customers/{id}/devices → {items, device_limit} (the panel's; 502 down)
//   POST /api/admin/customers/{id}/<action> (Idempotency-Key) → {action, customer}
#include <limits>

#include "api/admin_lists.hpp"
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/customer_actions.hpp"
#include "services/customer_card.hpp"
#include "services/customer_devices.hpp"
#include "services/customer_search.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

CustomerFilter filter_of(Exchange& ex) {
    CustomerFilter f;
    f.q = std::string(trim(query_param(ex.req.query, "q").value_or("")));
    check_customer_query(f.q);
    f.status = customer_status_named(query_param(ex.req.query, "status").value_or(""));
    f.promo_group = query_param(ex.req.query, "promo_group");
    if (f.promo_group && f.promo_group->empty()) f.promo_group.reset();
    const DayRange joined = query_days(ex, "joined_from", "joined_to");
    f.joined_from = joined.from;
    f.joined_until = joined.until;
    return f;
}

int64_t customer_id(Exchange& ex) { return path_id(ex, "no customer with that id"); }

std::optional<std::string> optional_text(const rapidjson::Value& body, const char* field) {
    if (!has_field(body, field) || body[field].IsNull()) return std::nullopt;
    return require_string(body, field, 0, 8192);
}

// The body's fields an action reads (services/customer_actions.cpp checks their values).
CustomerAction action_of(Exchange& ex, CustomerActionKind kind) {
    const JsonBody body(ex.req);
    CustomerAction a;
    a.kind = kind;
    a.reason = std::string(trim(require_string(body, "reason", 0, 2000)));
    constexpr int64_t kAny = std::numeric_limits<int64_t>::max();
    switch (kind) {
        case CustomerActionKind::balance: a.amount = require_int(body, "delta_minor", -kAny, kAny); break;
        case CustomerActionKind::extend: a.amount = require_int(body, "days", -kAny, kAny); break;
        case CustomerActionKind::grant:
            a.amount = require_int(body, "days", -kAny, kAny);
            a.text = require_string(body, "plan_code", 0, 200);
            break;
        case CustomerActionKind::discount: a.amount = require_int(body, "personal_discount_pct", -kAny, kAny); break;
        case CustomerActionKind::promo_group:
            if (!body.HasMember("promo_group")) throw bad_request("promo_group is required (a name, or null for none)");
            a.text = optional_text(body, "promo_group");
            break;
        case CustomerActionKind::unbind_device: a.text = require_string(body, "hwid", 0, 1000); break;
        case CustomerActionKind::message: a.text = require_string(body, "text", 0, 20000); break;
        default: break;
    }
    check_customer_action(a);
    return a;
}

}  // namespace

void get_admin_customers(Exchange& ex) {
    const CustomerFilter f = paged(ex, filter_of(ex));
    const auto items = search_customers(ex.io.db, f);
    write_page(ex.resp.json(), items, f.limit, write_customer);
}

// A customer who joins while it streams is not in the file (it reads below the newest id
// of its first batch).
void get_admin_customers_export(Exchange& ex) {
    stream_csv(ex, "customers.csv", kCustomerCsvHeader, filter_of(ex), search_customers, append_customer_csv);
}

void get_admin_customer(Exchange& ex) {
    write_json_text(ex, customer_card_json(ex.io.db, customer_id(ex)), "no customer with that id");
}

void get_admin_customer_devices(Exchange& ex) {
    const auto devices = customer_devices(ex.io.db, ex.io.panel, customer_id(ex));
    if (!devices) throw not_found("no customer with that id");
    JsonObject o(ex.resp.json());
    {
        JsonArray items = o.array("items");
        for (const auto& d : devices->items)
            items.object().put("hwid", d.hwid).put("platform", d.platform).put("device_model", d.device_model)
                .time("created_at", d.created_at);
    }
    o.put("device_limit", devices->device_limit);
}

void post_admin_customer_action(Exchange& ex) {
    const int64_t id = customer_id(ex);
    // Each action is a route of its own (routes.cpp names who may do it): the last segment.
    const auto kind = customer_action_named(ex.req.path.substr(ex.req.path.rfind('/') + 1));
    if (!kind) throw not_found("no such action");
    const std::string& key = ex.req.idempotency_key;
    if (key.empty() || key.size() > 100)
        throw bad_request("an Idempotency-Key header (1..100 characters) is required: one per action the page sends");
    const CustomerAction a = action_of(ex, *kind);
    const ActionCall call{key, admin_actor(ex), id};
    const ActionAnswer answer = run_customer_action(ex.io.db, ex.io.panel, ex.settings(), call, a);
    if (answer.replayed) ex.resp.header("Idempotent-Replayed", "true");
    write_json_text(ex, answer.json);
}

}  // namespace cabinet::api
