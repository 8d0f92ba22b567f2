#include "payments/yookassa.hpp"

#include "payments/wire.hpp"
#include "util/client_json.hpp"
#include "util/crypto.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr const char* kYooKassa = "yookassa";

// YooKassa takes keys up to 64 characters; the same key within 24 h returns the first
// payment instead of making a second one, so a retried purchase cannot be charged twice.
std::string idempotence_key(const CheckoutRequest& req) {
    const std::string& k = req.idempotence_key;
    if (k.empty()) return "cabinet-txn-" + std::to_string(req.transaction_id);
    if (k.size() <= 64) return k;
    const Sha256 h = sha256(k);
    return hex_encode(h.data(), h.size());
}

std::string trimmed_base(std::string b) {
    while (!b.empty() && b.back() == '/') b.pop_back();
    return b;
}

// YooKassa's money: {"value": "10.00", "currency": "RUB"}.
void put_amount(JsonObject& o, int64_t minor, const std::string& currency) {
    o.object("amount").put("value", payments::format_minor(minor)).put("currency", currency);
}

}  // namespace

bool plausible_yookassa_id(const std::string& id) {
    return !id.empty() && id.size() <= 64 &&
           id.find_first_not_of("0123456789abcdefABCDEF-_") == std::string::npos;
}

std::optional<YooKassaNotification> parse_yookassa_notification(std::string_view body) {
    rapidjson::Document doc;
    if (parse_client_json(doc, body) != JsonFault::none || !doc.IsObject()) return std::nullopt;
    auto object = doc.FindMember("object");
    if (object == doc.MemberEnd()) return std::nullopt;
    YooKassaNotification n;
    n.event = payments::string_or_empty(doc, "event");
    // A refund's object is the refund; the payment it belongs to is what is read back.
    n.payment_id = payments::string_or_empty(object->value, n.event.rfind("refund.", 0) == 0 ? "payment_id" : "id");
    if (!plausible_yookassa_id(n.payment_id)) return std::nullopt;
    return n;
}

std::optional<YooKassaPayment> parse_yookassa_payment(const rapidjson::Value& obj) {
    using payments::string_member;
    using payments::string_or_empty;
    if (!obj.IsObject()) return std::nullopt;
    YooKassaPayment p;
    p.id = string_or_empty(obj, "id");
    p.status = string_or_empty(obj, "status");
    auto amount = obj.FindMember("amount");
    if (p.id.empty() || p.status.empty() || amount == obj.MemberEnd()) return std::nullopt;
    const auto* value = string_member(amount->value, "value");
    const auto minor = value ? payments::parse_minor(value->GetString()) : std::nullopt;
    p.currency = string_or_empty(amount->value, "currency");
    if (!minor || p.currency.empty()) return std::nullopt;
    p.amount_minor = *minor;
    // Metadata values are strings in YooKassa; the id is ours only if it is a positive integer.
    auto meta = obj.FindMember("metadata");
    if (meta != obj.MemberEnd()) {
        int64_t id = 0;
        if (parse_int64(string_or_empty(meta->value, "transaction_id"), id) && id > 0) p.transaction_id = id;
    }
    auto cancel = obj.FindMember("cancellation_details");
    if (cancel != obj.MemberEnd()) p.cancel_reason = string_or_empty(cancel->value, "reason");
    auto refunded = obj.FindMember("refunded_amount");
    if (refunded != obj.MemberEnd()) {
        const auto* r = string_member(refunded->value, "value");
        const auto r_minor = r ? payments::parse_minor(r->GetString()) : std::nullopt;
        if (!r_minor) return std::nullopt;
        p.refunded_minor = *r_minor;
    }
    return p;
}

YooKassa::YooKassa(const Settings& s, const CallSlots* slots)
    : base_(trimmed_base(s.yookassa_api_base)),
      auth_header_(payments::basic_auth_header(s.yookassa_shop_id, s.yookassa_secret_key)),
      // The buyer comes back to the mini-app unless the owner set a page of their own.
      return_url_(s.yookassa_return_url.empty() ? s.miniapp_url : s.yookassa_return_url),
      http_(payments::gateway_http(s)),
      slots_(slots) {}

std::string YooKassa::refund(const std::string& payment_id, int64_t amount_minor, const std::string& currency,
                            const std::string& idempotence_key) {
    if (!plausible_yookassa_id(payment_id)) throw GatewayRefusal("YooKassa refused the refund: no payment id is recorded");
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    put_amount(JsonObject(w).put("payment_id", payment_id), amount_minor, currency);
    const auto r = payments::call_gateway(http_, slots_, kYooKassa, "POST", base_ + "/refunds",
                                          {auth_header_, "Idempotence-Key: " + idempotence_key,
                                           "Content-Type: application/json", "Accept: application/json"},
                                          buf.GetString(), false, true);
    const auto doc = payments::parse_object(kYooKassa, r.body);
    if (r.status >= 400) {
        const std::string why = payments::string_or_empty(doc, "description");
        throw GatewayRefusal("YooKassa refused the refund: " + (why.empty() ? "HTTP " + std::to_string(r.status) : why));
    }
    const std::string status = payments::string_or_empty(doc, "status");
    if (status == "canceled") throw GatewayRefusal("YooKassa canceled the refund");
    if (status != "succeeded" && status != "pending") throw GatewayError("yookassa: refund answer without a status");
    return status;
}

Checkout YooKassa::create(const CheckoutRequest& req) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        put_amount(o, req.amount_minor, req.currency);
        o.put("capture", true);  // one step: succeeded means the money is ours, no waiting_for_capture
        o.object("confirmation")
            .put("type", "redirect")
            .put("return_url", req.return_url.empty() ? return_url_ : req.return_url);
        o.put("description", utf8_prefix(req.description, 128));  // YooKassa's limit
        o.object("metadata").put("transaction_id", std::to_string(req.transaction_id));
    }

    const auto r = payments::call_gateway(
        http_, slots_, kYooKassa, "POST", base_ + "/payments",
        {auth_header_, "Idempotence-Key: " + idempotence_key(req), "Content-Type: application/json",
         "Accept: application/json"},
        buf.GetString());
    const auto doc = payments::parse_object(kYooKassa, r.body);
    Checkout out;
    out.provider_payment_id = payments::string_or_empty(doc, "id");
    auto conf = doc.FindMember("confirmation");
    if (conf != doc.MemberEnd()) out.redirect_url = payments::string_or_empty(conf->value, "confirmation_url");
    if (!plausible_yookassa_id(out.provider_payment_id) || out.redirect_url.empty())
        throw GatewayError("yookassa: payment answer without id or confirmation_url");
    return out;
}

std::optional<YooKassaPayment> YooKassa::fetch(const std::string& payment_id) {
    if (!plausible_yookassa_id(payment_id)) return std::nullopt;
    const auto r = payments::call_gateway(http_, slots_, kYooKassa, "GET", base_ + "/payments/" + payment_id,
                                          {auth_header_, "Accept: application/json"}, {}, true);
    if (r.status == 404) return std::nullopt;
    const auto doc = payments::parse_object(kYooKassa, r.body);
    auto p = parse_yookassa_payment(doc);
    if (!p || p->id != payment_id) throw GatewayError("yookassa: payment " + payment_id + " answer is off-contract");
    return p;
}

}  // namespace cabinet
