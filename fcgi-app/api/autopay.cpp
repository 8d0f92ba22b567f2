// GET /api/cabinet/subscription/autopay: the switch and what it will charge and when.
// PUT /api/cabinet/subscription/autopay {"enabled": bool}: turns it on or off
// (services/autopay.hpp set_autopay), then answers as GET does.
//
// {"enabled": bool, "next_charge": {"charge_from", "expire_at", "amount_minor", "currency",
//  "plan_name", "days", "balance_enough"} | null}. next_charge is null without a paid
// subscription or with nothing the shop still sells to renew it with.
#include "api/handlers.hpp"
#include "http/body.hpp"
#include "services/autopay.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

void write_view(Exchange& ex, const AutopayView& v) {
    JsonObject o(ex.resp.json());
    o.put("enabled", v.enabled);
    if (!v.charge) {
        o.null("next_charge");
        return;
    }
    const AutopayCharge& c = *v.charge;
    auto charge = o.object("next_charge");
    charge.put("charge_from", iso8601_utc(c.charge_from)).put("expire_at", iso8601_utc(c.expire_at));
    charge.put("amount_minor", c.amount_minor).put("currency", c.currency).put("plan_name", c.plan_name);
    charge.put("days", c.days).put("balance_enough", c.balance_enough);
}

}  // namespace

void get_autopay(Exchange& ex) {
    write_view(ex, autopay_view(ex.io.db, ex.settings(), ex.caller().user.id));
}

void put_autopay(Exchange& ex) {
    const JsonBody body(ex.req);
    const bool enabled = require_bool(body, "enabled");
    write_view(ex, switch_autopay(ex.io.db, ex.settings(), ex.caller().user.id, enabled));
}

}  // namespace cabinet::api
