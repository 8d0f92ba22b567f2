// POST /bot/webhook: updates from the Telegram Bot API. Checked by the secret token the
// Bot API sends in X-Telegram-Bot-Api-Secret-Token (set with setWebhook). Telegram Stars
// payments arrive here: pre_checkout_query is answered ok only for a pending Stars
// transaction with the exact amount; successful_payment marks it paid and queues its
// fulfilment (services/payment_confirmation), once however often Telegram repeats it.
// Other updates (commands, buttons) belong to the bot and are acknowledged untouched.
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "bot/bot_api.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/payment_confirmation.hpp"
#include "util/crypto.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

void check_secret(const Exchange& ex) {
    const std::string& expected = ex.settings().bot_webhook_secret;
    if (expected.empty()) throw forbidden("bot webhook secret is not configured");
    // Compare digests: constant time whatever the lengths.
    if (!digest_equal(sha256(ex.req.telegram_secret_token), sha256(expected))) throw forbidden("bad webhook secret");
}

int64_t transaction_id_of(const rapidjson::Value& obj) {
    int64_t id = 0;
    auto p = obj.FindMember("invoice_payload");
    if (p == obj.MemberEnd() || !p->value.IsString() || !parse_int64(p->value.GetString(), id) || id <= 0) return 0;
    return id;
}

void pre_checkout(Exchange& ex, const rapidjson::Value& q) {
    const std::string query_id = require_string(q, "id", 1, 256);
    const int64_t tx = transaction_id_of(q);
    const std::string currency = require_string(q, "currency", 1, 8);
    const int64_t amount = require_int(q, "total_amount", 0, INT64_MAX);
    bool ok = false;
    if (tx > 0) {
        ok = ex.io.db.read([&](auto& txn) { return !txn.exec_prepared("stars_invoice_open", tx, amount).empty(); });
    }
    ok = ok && currency == "XTR";
    if (!ok) spdlog::warn("{} stars pre-checkout refused for payload {} ({} {})", ex.req.request_id, tx, amount, currency);
    BotApi(ex.settings()).answer_pre_checkout_query(query_id, ok, ok ? "" : "This invoice is no longer valid.");
}

void successful_payment(Exchange& ex, const rapidjson::Value& p) {
    const int64_t tx = transaction_id_of(p);
    if (tx == 0) throw bad_request("successful_payment without our payload");
    const std::string currency = require_string(p, "currency", 1, 8);
    const int64_t amount = require_int(p, "total_amount", 0, INT64_MAX);
    const std::string charge = require_string(p, "telegram_payment_charge_id", 1, 256);
    const Confirmation c = ex.io.db.transact(
        [&](pqxx::work& txn) { return confirm_payment(txn, tx, "stars", "stars:" + charge, amount, currency); });
    spdlog::info("{} stars payment for transaction {}: {}", ex.req.request_id, tx,
                 c == Confirmation::accepted ? "accepted" : c == Confirmation::already_paid ? "replay" : "underpaid");
}

}  // namespace

void post_bot_webhook(Exchange& ex) {
    check_secret(ex);
    const auto update = json_body(ex.req);
    if (auto q = update.FindMember("pre_checkout_query"); q != update.MemberEnd() && q->value.IsObject()) {
        pre_checkout(ex, q->value);
    } else if (auto m = update.FindMember("message"); m != update.MemberEnd() && m->value.IsObject()) {
        if (auto sp = m->value.FindMember("successful_payment"); sp != m->value.MemberEnd() && sp->value.IsObject())
            successful_payment(ex, sp->value);
    }
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.EndObject();
}

}  // namespace cabinet::api
