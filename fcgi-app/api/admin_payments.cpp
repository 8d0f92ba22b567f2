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

constexpr int64_t kDefaultPage = 50, kMaxPage = 200, kExportBatch = 2000;
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

int64_t payment_id(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no payment with that id");
    return id;
}

}  // namespace

void get_admin_payments(Exchange& ex) {
    PaymentFilter f = filter_of(ex);
    f.before_id = query_int(ex.req.query, "cursor", 1, kAnyId);
    f.limit = query_int(ex.req.query, "limit", 1, kMaxPage).value_or(kDefaultPage);
    // Read whole, then written: a retried read must not write the answer twice.
    const auto [items, totals] = ex.io.db.read([&](auto& txn) {
        rapidjson::StringBuffer buf;
        JsonWriter t(buf);
        write_payment_totals(t, txn, f);
        return std::pair{search_payments(txn, f), std::string(buf.GetString(), buf.GetSize())};
    });
    write_page(ex.resp.json(), items, f.limit, write_payment, [&](JsonWriter& w) {
        w.Key("totals");
        w.RawValue(totals.data(), totals.size(), rapidjson::kObjectType);
    });
}

void get_admin_payments_export(Exchange& ex) {
    PaymentFilter f = filter_of(ex);
    f.limit = kExportBatch;
    stream_csv(ex, "payments.csv", kPaymentCsvHeader, f,
               [](pqxx::transaction_base& txn, const PaymentFilter& g) { return search_payments(txn, g); },
               append_payment_csv);
}

void get_admin_payment(Exchange& ex) {
    const int64_t id = payment_id(ex);
    const auto detail = ex.io.db.read([&](auto& txn) { return payment_detail_json(txn, id); });
    if (!detail) throw not_found("no payment with that id");
    ex.resp.json().RawValue(detail->data(), detail->size(), rapidjson::kObjectType);
}

void post_admin_payment_refund(Exchange& ex) {
    const int64_t id = payment_id(ex);
    const std::string& key = ex.req.idempotency_key;
    if (key.empty() || key.size() > 100)
        throw bad_request("an Idempotency-Key header (1..100 characters) is required: one per refund the page sends");
    const JsonBody body(ex.req);
    const std::string reason(trim(require_string(body, "reason", 0, 2000)));
    check_text("reason", reason, 1, 500);
    const std::string by = admin_actor(ex);
    const std::string answer = ex.io.db.transact(
        [&](pqxx::work& txn) { return refund_by_owner(txn, ex.io.panel, ex.settings(), id, by, reason, key); });
    ex.resp.json().RawValue(answer.data(), answer.size(), rapidjson::kObjectType);
}

}  // namespace cabinet::api
