// POST /api/cabinet/purchase (SPEC "POST /purchase"): buy or renew in the shop's sales
// mode. Paid from the balance (or free at a 100 % discount) it is fulfilled here, panel
// first, under the buyer's row lock: 402 when the balance is short, 502 when the panel is
// down, and in both cases nothing is charged. An Idempotency-Key makes a repeat a 409.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "db/accounts_repo.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/order.hpp"
#include "util/time.hpp"

namespace cabinet::api {
namespace {

struct Outcome {
    int64_t transaction_id = 0;
    bool free = false;
    Subscription subscription;
};

std::string idempotency_key(const Request& req) {
    const std::string& k = req.idempotency_key;
    if (k.size() > 128 || k.find_first_of("\r\n") != std::string::npos)
        throw bad_request("Idempotency-Key must be at most 128 characters");
    return k;
}

void check_method(const Settings& s, const std::string& method) {
    if (method == "balance") {
        if (!s.balance_enabled) throw bad_request("paying from the balance is switched off");
        return;
    }
    // Telegram Stars and the online gateways are fulfilled by their webhooks through the
    // job queue; until those are in place they are not offered.
    throw bad_request("payment method " + method + " is not available");
}

void pay_commission(pqxx::work& txn, const Settings& s, const User& buyer, int64_t amount, int64_t transaction_id) {
    if (!buyer.referred_by || s.referral_percent == 0 || amount == 0) return;
    const int64_t commission = amount / 100 * s.referral_percent + amount % 100 * s.referral_percent / 100;
    if (commission > 0) txn.exec_prepared("pay_referral_commission", *buyer.referred_by, buyer.id, commission, transaction_id);
}

}  // namespace

void post_purchase(Exchange& ex) {
    const Settings& s = ex.settings();
    const auto body = json_body(ex.req);
    const std::string method = require_string(body, "method", 1, 32);
    const std::string key = idempotency_key(ex.req);
    const int64_t now = unix_now();

    const Outcome out = ex.io.db.transact([&](pqxx::work& txn) {
        const Account locked = lock_account(txn, ex.caller().user.id);
        if (!key.empty()) {
            const auto seen = txn.exec_prepared("purchase_by_idempotency_key", locked.user.id, key);
            if (!seen.empty())
                throw ApiError(409, "purchase already processed: transaction " + std::string(seen[0]["id"].c_str()));
        }
        const Order order = resolve_order(txn, s, locked, body);
        Outcome o;
        o.free = order.quote.final_minor == 0;
        if (!o.free) {
            check_method(s, method);
            if (txn.exec_prepared("charge_balance", locked.user.id, order.quote.final_minor).empty())
                throw ApiError(402, "balance insufficient");
        }
        o.subscription = grant_subscription(txn, ex.io.panel, locked, order.grant, now);
        const auto id = txn.exec_prepared("insert_purchase", locked.user.id, "completed", order.quote.final_minor,
                                          locked.user.currency, o.free ? "free" : method, order_snapshot_json(order),
                                          order_pricing_json(order), order.grant.plan_name, key);
        o.transaction_id = id[0][0].as<int64_t>();
        txn.exec_prepared("consume_promo_offer", locked.user.id);
        pay_commission(txn, s, locked.user, order.quote.final_minor, o.transaction_id);
        return o;
    });

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("paid_with");
    w.String(out.free ? "free" : "balance");
    w.Key("transaction_id");
    w.Int64(out.transaction_id);
    w.Key("subscription");
    write_subscription(w, s, out.subscription, now);
    w.EndObject();
}

}  // namespace cabinet::api
