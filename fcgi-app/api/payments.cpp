// GET /api/cabinet/payments: the caller's latest transactions, newest first (SPEC "Limits":
// 20; shape in SPEC-GAPS "Cabinet shapes"; an open one adds `expires_at`, additively).
// POST /api/cabinet/payments/{id}/cancel: the caller ends an open payment of theirs
// (services/payment_cancel.hpp).
#include "api/handlers.hpp"
#include "errors.hpp"
#include "services/payment_cancel.hpp"
#include "services/payment_history.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_payments(Exchange& ex) {
    const int64_t user_id = ex.caller().user.id;
    const auto items = payment_history(ex.io.db, user_id);

    JsonObject o(ex.resp.json());
    auto list = o.array("items");
    for (const PaymentItem& p : items) {
        auto item = list.object();
        item.put("id", p.id).put("type", p.type).put("status", p.status);
        item.put("amount_minor", p.amount_minor).put("currency", p.currency).put("method", p.method);
        item.put("created_at", iso8601_utc(p.created_at));
        if (p.expires_at > 0) item.put("expires_at", iso8601_utc(p.expires_at));
    }
}

void post_payment_cancel(Exchange& ex) {
    int64_t id = 0;
    if (!parse_int64(ex.req.path_params.at(0), id) || id < 1) throw not_found("no payment with that id", "payment_not_found");
    const int64_t user_id = ex.caller().user.id;
    cancel_own_payment(ex.io.db, user_id, id);
    JsonObject(ex.resp.json()).put("id", id).put("status", "canceled");
}

}  // namespace cabinet::api
