// GET /api/cabinet/payments: the caller's latest transactions, newest first (SPEC "Limits":
// 20; shape in SPEC-GAPS "Cabinet shapes"; an open one adds `expires_at`, additively).
// POST /api/cabinet/payments/{id}/cancel: the caller ends an open payment of theirs
// (services/payment_cancel.hpp).
#include "api/handlers.hpp"
#include "db/catalog_repo.hpp"
#include "errors.hpp"
#include "services/payment_cancel.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {

namespace {
constexpr int64_t kPaymentsListLength = 20;
}

void get_payments(Exchange& ex) {
    const int64_t user_id = ex.caller().user.id;
    const auto items = ex.io.db.read(
        [&](pqxx::transaction_base& txn) { return recent_payments(txn, user_id, kPaymentsListLength); });

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("items");
    w.StartArray();
    for (const PaymentItem& p : items) {
        w.StartObject();
        w.Key("id");
        w.Int64(p.id);
        w.Key("type");
        write_string(w, p.type);
        w.Key("status");
        write_string(w, p.status);
        w.Key("amount_minor");
        w.Int64(p.amount_minor);
        w.Key("currency");
        write_string(w, p.currency);
        w.Key("method");
        write_string(w, p.method);
        w.Key("created_at");
        write_string(w, iso8601_utc(p.created_at));
        if (p.expires_at > 0) {
            w.Key("expires_at");
            write_string(w, iso8601_utc(p.expires_at));
        }
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

void post_payment_cancel(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no payment with that id", "payment_not_found");
    const int64_t user_id = ex.caller().user.id;
    ex.io.db.transact([&](pqxx::work& txn) { cancel_own_payment(txn, user_id, id); });
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("id");
    w.Int64(id);
    w.Key("status");
    w.String("canceled");
    w.EndObject();
}

}  // namespace cabinet::api
