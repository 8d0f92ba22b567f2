#include "payments/cryptobot.hpp"

#include "payments/wire.hpp"
#include "util/client_json.hpp"
#include "util/crypto.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

constexpr const char* kCryptoBot = "cryptobot";

Sha256 signature_of(std::string_view token, std::string_view body) { return hmac_sha256(sha256(token), body); }

// invoice_id is a number in the API; tolerate a string too.
std::string id_string(const rapidjson::Value& v) {
    if (v.IsUint64()) return std::to_string(v.GetUint64());
    if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
    return {};
}

}  // namespace

bool cryptobot_signature_ok(std::string_view token, std::string_view body, std::string_view signature_hex) {
    Sha256 given{};
    if (token.empty() || !hex_decode(signature_hex, given.data(), given.size())) return false;
    return digest_equal(signature_of(token, body), given);
}

std::string cryptobot_signature(std::string_view token, std::string_view body) {
    const Sha256 s = signature_of(token, body);
    return hex_encode(s.data(), s.size());
}

namespace {

// One invoice object; nullopt when its id, amount or currency are missing or malformed.
std::optional<CryptoBotInvoice> parse_invoice(const rapidjson::Value& i) {
    using payments::string_or_empty;
    if (!i.IsObject()) return std::nullopt;
    CryptoBotInvoice inv;
    auto id = i.FindMember("invoice_id");
    if (id == i.MemberEnd() || (inv.invoice_id = id_string(id->value)).empty()) return std::nullopt;
    inv.status = string_or_empty(i, "status");
    int64_t txn = 0;
    if (parse_int64(string_or_empty(i, "payload"), txn) && txn > 0) inv.transaction_id = txn;
    const bool fiat = string_or_empty(i, "currency_type") != "crypto";
    inv.currency = string_or_empty(i, fiat ? "fiat" : "asset");
    const auto amount = payments::parse_minor(string_or_empty(i, "amount"));
    if (!amount || inv.currency.empty()) return std::nullopt;
    inv.amount_minor = *amount;
    return inv;
}

}  // namespace

std::optional<CryptoBotUpdate> parse_cryptobot_update(std::string_view body) {
    rapidjson::Document doc;
    if (parse_client_json(doc, body) != JsonFault::none || !doc.IsObject()) return std::nullopt;
    CryptoBotUpdate u;
    u.update_type = payments::string_or_empty(doc, "update_type");
    auto inv = doc.FindMember("payload");
    if (u.update_type.empty() || inv == doc.MemberEnd()) return std::nullopt;
    const auto invoice = parse_invoice(inv->value);
    if (!invoice) return std::nullopt;
    static_cast<CryptoBotInvoice&>(u) = *invoice;
    return u;
}

CryptoBot::CryptoBot(const Settings& s, const CallSlots* slots)
    : base_(s.cryptobot_api_base),
      token_header_("Crypto-Pay-API-Token: " + s.cryptobot_token),
      http_(payments::gateway_http(s)),
      slots_(slots) {
    while (!base_.empty() && base_.back() == '/') base_.pop_back();
}

Checkout CryptoBot::create(const CheckoutRequest& req) {
    // CryptoBot has no idempotency key: a retried purchase makes a second invoice, and
    // only the one that is paid confirms the transaction (payload = our id).
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    {
        JsonObject o(w);
        o.put("currency_type", "fiat").put("fiat", req.currency).put("amount", payments::format_minor(req.amount_minor));
        o.put("description", utf8_prefix(req.description, 1024));  // the API's limit
        o.put("payload", std::to_string(req.transaction_id));
        if (!req.return_url.empty())  // the "paid" page's button leads back to the web cabinet
            o.put("paid_btn_name", "callback").put("paid_btn_url", req.return_url);
    }

    const auto r = payments::call_gateway(http_, slots_, kCryptoBot, "POST", base_ + "/createInvoice",
                                          {token_header_, "Content-Type: application/json", "Accept: application/json"},
                                          buf.GetString());
    const auto doc = payments::parse_object(kCryptoBot, r.body);
    auto ok = doc.FindMember("ok");
    auto result = doc.FindMember("result");
    if (ok == doc.MemberEnd() || !ok->value.IsBool() || !ok->value.GetBool() || result == doc.MemberEnd() ||
        !result->value.IsObject())
        throw GatewayError("cryptobot: createInvoice answered without ok/result: " + r.body.substr(0, 200));
    const auto& inv = result->value;
    Checkout out;
    auto id = inv.FindMember("invoice_id");
    if (id != inv.MemberEnd()) out.provider_payment_id = id_string(id->value);
    out.redirect_url = payments::string_or_empty(inv, "bot_invoice_url");
    if (out.redirect_url.empty()) out.redirect_url = payments::string_or_empty(inv, "pay_url");  // older API name
    if (out.provider_payment_id.empty() || out.redirect_url.empty())
        throw GatewayError("cryptobot: invoice without invoice_id or bot_invoice_url");
    return out;
}

std::optional<CryptoBotInvoice> CryptoBot::fetch(const std::string& invoice_id) {
    if (invoice_id.empty() || invoice_id.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    const auto r = payments::call_gateway(http_, slots_, kCryptoBot, "GET", base_ + "/getInvoices?invoice_ids=" + invoice_id,
                                          {token_header_, "Accept: application/json"}, {});
    const auto doc = payments::parse_object(kCryptoBot, r.body);
    auto result = doc.FindMember("result");
    if (result == doc.MemberEnd() || !result->value.IsObject()) throw GatewayError("cryptobot: getInvoices answered without result");
    auto items = result->value.FindMember("items");
    if (items == result->value.MemberEnd() || !items->value.IsArray()) throw GatewayError("cryptobot: getInvoices answered without items");
    for (const auto& item : items->value.GetArray()) {
        auto inv = parse_invoice(item);
        if (inv && inv->invoice_id == invoice_id) return inv;
    }
    return std::nullopt;
}

}  // namespace cabinet
