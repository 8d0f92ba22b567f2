#include "bot/bot_api.hpp"

#include "payments/gateway.hpp"
#include "util/json.hpp"

namespace cabinet {

BotApi::BotApi(const Settings& s)
    : base_(s.telegram_api_base + "/bot" + s.bot_token + "/"), http_(s.panel_connect_timeout_ms, s.gateway_timeout_ms) {}

std::string BotApi::call(const std::string& method, const std::string& json_body) {
    HttpResponse r;
    try {
        r = http_.send("POST", base_ + method, {"Content-Type: application/json"}, json_body);
    } catch (const TransportError&) {
        throw GatewayError(std::string("Bot API ") + method + ": transport error");  // the URL holds the token: not logged
    }
    rapidjson::Document d;
    d.Parse<kStrictParse>(r.body.data(), r.body.size());
    if (r.status != 200 || d.HasParseError() || !d.IsObject() || !d.HasMember("ok") || !d["ok"].IsBool() || !d["ok"].GetBool())
        throw GatewayError("Bot API " + method + " answered " + std::to_string(r.status));
    if (!d.HasMember("result")) return {};
    if (d["result"].IsString()) return d["result"].GetString();
    return {};
}

std::string BotApi::create_invoice_link(const std::string& title, const std::string& description,
                                        const std::string& payload, int64_t stars) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("title");
    write_string(w, title.substr(0, 32));  // Bot API limits
    w.Key("description");
    write_string(w, description.substr(0, 255));
    w.Key("payload");
    write_string(w, payload);
    w.Key("currency");
    w.String("XTR");
    w.Key("prices");
    w.StartArray();
    w.StartObject();
    w.Key("label");
    write_string(w, title.substr(0, 32));
    w.Key("amount");
    w.Int64(stars);
    w.EndObject();
    w.EndArray();
    w.EndObject();
    const std::string link = call("createInvoiceLink", buf.GetString());
    if (link.empty()) throw GatewayError("Bot API createInvoiceLink returned no link");
    return link;
}

void BotApi::answer_pre_checkout_query(const std::string& query_id, bool ok, const std::string& error_message) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("pre_checkout_query_id");
    write_string(w, query_id);
    w.Key("ok");
    w.Bool(ok);
    if (!ok) {
        w.Key("error_message");
        write_string(w, error_message);
    }
    w.EndObject();
    call("answerPreCheckoutQuery", buf.GetString());
}

}  // namespace cabinet
