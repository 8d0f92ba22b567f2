// GET /api/cabinet/subscription/autopay: the switch and what it will charge and when.
// PUT /api/cabinet/subscription/autopay {"enabled": bool}: turns it on or off
// (services/autopay.hpp set_autopay), then answers as GET does.
//
// {"enabled": bool, "next_charge": {"charge_from", "expire_at", "amount_minor", "currency",
//  "plan_name", "days", "balance_enough"} | null}. next_charge is null without a paid
// subscription or with nothing the shop still sells to renew it with.
#include "api/handlers.hpp"
#include "db/accounts_repo.hpp"
#include "http/body.hpp"
#include "services/autopay.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

struct AutopayView {
    bool enabled = false;
    std::optional<AutopayCharge> charge;
};

AutopayView view_of(pqxx::work& txn, const Settings& s, const LockedAccount& locked) {
    return {locked.subscription && locked.subscription->autopay_enabled, autopay_charge(txn, s, locked)};
}

void write_view(Exchange& ex, const AutopayView& v) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("enabled");
    w.Bool(v.enabled);
    w.Key("next_charge");
    if (!v.charge) {
        w.Null();
    } else {
        const AutopayCharge& c = *v.charge;
        w.StartObject();
        w.Key("charge_from");
        write_string(w, iso8601_utc(c.charge_from));
        w.Key("expire_at");
        write_string(w, iso8601_utc(c.expire_at));
        w.Key("amount_minor");
        w.Int64(c.amount_minor);
        w.Key("currency");
        write_string(w, c.currency);
        w.Key("plan_name");
        write_string(w, c.plan_name);
        w.Key("days");
        w.Int64(c.days);
        w.Key("balance_enough");
        w.Bool(c.balance_enough);
        w.EndObject();
    }
    w.EndObject();
}

}  // namespace

void get_autopay(Exchange& ex) {
    const Settings& s = ex.settings();
    // Priced under the lock, with the discounts the account holds now, as the charge will be.
    const AutopayView v = ex.io.db.transact(
        [&](pqxx::work& txn) { return view_of(txn, s, lock_account(txn, ex.caller().user.id)); });
    write_view(ex, v);
}

void put_autopay(Exchange& ex) {
    const Settings& s = ex.settings();
    const JsonBody body(ex.req);
    const bool enabled = require_bool(body, "enabled");
    const AutopayView v = ex.io.db.transact([&](pqxx::work& txn) {
        const LockedAccount locked = lock_account(txn, ex.caller().user.id);
        set_autopay(txn, s, locked, enabled);
        AutopayView out = view_of(txn, s, locked);
        out.enabled = enabled;  // `locked` was read before the switch
        return out;
    });
    write_view(ex, v);
}

}  // namespace cabinet::api
