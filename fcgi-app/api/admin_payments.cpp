// The owner's payments (services/payment_admin; docs/api.md "Payments"). Reads are the
// owner's and the viewer's; a refund is the owner's (routes.cpp).
//   GET  /api/admin/payments?status=&method=&type=&customer=&from=&to=&cursor=&limit=
//        {items: [payment…], next_cursor, totals: {count, amounts}} (totals: the whole filter)
//   GET  /api/admin/payments/export?(the same filters) → text/csv, streamed
//   GET  /api/admin/payments/{id} → {payment, refundable, refund_note, events}
//   POST /api/admin/payments/{id}/refund {reason} (Idempotency-Key) → the detail after it
#include <limits>

#include "api/admin_lists.hpp"
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "http/query.hpp"
#include "services/field_checks.hpp"
#include "services/payment_admin.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

constexpr int64_t kAnyId = std::numeric_limits<int64_t>::max();

std::optional<std::string> word(Exchange& ex, const char* name) {
    auto v = query_param(ex.req.query, name);
    if (v && v->empty()) v.reset();
    return v;
}

PaymentFilter filter_of(Exchange& ex) {
    PaymentFilter f;
    f.status = word(ex, "status");
    f.method = word(ex, "method");
    f.type = word(ex, "type");
    f.user_id = query_int(ex.req.query, "customer", 1, kAnyId);
    const DayRange days = query_days(ex, "from", "to");
    f.from = days.from;
    f.until = days.until;
    check_payment_filter(f);
    return f;
}

int64_t payment_id(Exchange& ex) { return path_id(ex, "no payment with that id"); }

}  // namespace

void get_admin_payments(Exchange& ex) {
    const PaymentFilter f = paged(ex, filter_of(ex));
    const PaymentPage page = payments_page(ex.io.db, f);
    write_page(ex.resp.json(), page.items, f.limit, write_payment, [&](JsonWriter& w) {
        write_key(w, "totals");
        w.RawValue(page.totals_json.data(), page.totals_json.size(), rapidjson::kObjectType);
    });
}

void get_admin_payments_export(Exchange& ex) {
    stream_csv(ex, "payments.csv", kPaymentCsvHeader, filter_of(ex), search_payments, append_payment_csv);
}

void get_admin_payment(Exchange& ex) {
    write_json_text(ex, payment_detail_json(ex.io.db, payment_id(ex)), "no payment with that id");
}

void post_admin_payment_refund(Exchange& ex) {
    OwnerRefund r;
    r.payment_id = payment_id(ex);
    r.idempotency_key = ex.req.idempotency_key;
    if (r.idempotency_key.empty() || r.idempotency_key.size() > 100)
        throw bad_request("an Idempotency-Key header (1..100 characters) is required: one per refund the page sends");
    const JsonBody body(ex.req);
    r.reason = std::string(trim(require_string(body, "reason", 0, 2000)));
    check_text("reason", r.reason, 1, 500);
    r.actor = admin_actor(ex);
    write_json_text(ex, refund_by_owner(ex.io.db, ex.io.panel, ex.settings(), r));
}

}  // namespace cabinet::api
