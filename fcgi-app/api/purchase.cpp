// POST /api/cabinet/purchase (SPEC "POST /purchase"): the body read into a typed request,
// the flow in services/purchase.hpp, the answer written here.
#include "api/handlers.hpp"
#include "api/order_choice.hpp"
#include "api/serializers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/purchase.hpp"
#include "util/strings.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

std::string idempotency_key(const Request& req) {
    const std::string& k = req.idempotency_key;
    // Stored with the purchase: text PostgreSQL accepts (UTF-8, no control characters).
    if (k.size() > 128 || has_control_chars(k) || !valid_utf8(k))
        throw bad_request("Idempotency-Key must be at most 128 characters of printable text");
    return k;
}

}  // namespace

void post_purchase(Exchange& ex) {
    const Settings& s = ex.settings();
    const JsonBody body(ex.req);
    PurchaseRequest req;
    req.user_id = ex.caller().user.id;
    req.method = require_string(body, "method", 1, 32);
    req.idempotency_key = idempotency_key(ex.req);
    req.choice = read_order_choice(body, s.sales_mode);
    // A browser buyer returns to the web cabinet, which then waits for this payment.
    if (ex.web_session) req.return_page = s.web_cabinet_url + "/";
    const int64_t now = unix_now();

    const PurchaseResult out =
        purchase(PurchaseDeps{ex.io.db, ex.io.panel, s, ex.shared.catalog, &ex.shared.checkout_slots}, req);

    JsonObject o(ex.resp.json());
    o.put("ok", true).put("transaction_id", out.transaction_id);
    if (!out.paid_with.empty()) {
        o.put("paid_with", out.paid_with);
        write_subscription(o.key("subscription"), s, out.subscription, now);
    } else {
        o.put(out.stars ? "invoice_link" : "redirect_url", out.payment_url);
    }
}

}  // namespace cabinet::api
