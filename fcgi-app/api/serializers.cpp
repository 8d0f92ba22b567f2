#include "api/serializers.hpp"

#include "domain/subscription_status.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void write_user(JsonWriter& w, const Settings& s, const User& u) {
    w.StartObject();
    w.Key("id");
    w.Int64(u.id);
    // Additive (issue 49): how the customer is known, where linked.
    w.Key("telegram_id");
    if (u.telegram_id) w.Int64(*u.telegram_id);
    else w.Null();
    w.Key("email");
    if (u.email) write_string(w, *u.email);
    else w.Null();
    w.Key("first_name");
    write_string(w, u.first_name);
    w.Key("username");
    write_string(w, u.username);
    w.Key("language");
    write_string(w, u.language);
    w.Key("currency");
    write_string(w, u.currency);
    w.Key("balance_minor");
    w.Int64(u.balance_minor);
    w.Key("referral_code");
    write_string(w, u.referral_code);
    w.Key("personal_discount_pct");
    w.Int64(u.personal_discount_pct);
    w.Key("is_trial_available");
    w.Bool(s.trial_enabled && !u.trial_used);
    w.EndObject();
}

void write_subscription(JsonWriter& w, const Settings& s, const std::optional<Subscription>& sub, int64_t now) {
    if (!sub) {
        w.Null();
        return;
    }
    w.StartObject();
    w.Key("status");
    write_string(w, to_text(effective_status(*sub, now)));
    w.Key("is_trial");
    w.Bool(sub->is_trial);
    w.Key("plan_name");
    write_string(w, sub->plan_name);
    w.Key("start_at");
    write_string(w, iso8601_utc(sub->start_at));
    w.Key("expire_at");
    write_string(w, iso8601_utc(sub->expire_at));
    w.Key("device_limit");
    w.Int64(sub->device_limit);
    w.Key("traffic");
    w.StartObject();
    w.Key("used_bytes");
    w.Int64(sub->traffic_used_bytes);
    w.Key("limit_bytes");
    w.Int64(sub->traffic_limit_bytes);
    w.Key("unlimited");
    w.Bool(sub->traffic_limit_bytes == 0);
    w.EndObject();
    w.Key("subscription_url");
    write_nullable(w, s.hide_subscription_link || !sub->subscription_url ? nullptr : &*sub->subscription_url);
    w.Key("crypto_link");
    write_string(w, sub->crypto_link);
    w.Key("autopay_enabled");
    w.Bool(sub->autopay_enabled);
    w.EndObject();
}

namespace {

void write_method(JsonWriter& w, const char* id, const char* label) {
    w.StartObject();
    w.Key("id");
    w.String(id);
    w.Key("label");
    w.String(label);
    w.EndObject();
}

// The online gateways that are switched on (payments/gateway.cpp decides the same way).
void write_gateway_methods(JsonWriter& w, const Settings& s) {
    if (s.yookassa_enabled) write_method(w, "yookassa", "Bank card (YooKassa)");
    if (s.cryptobot_enabled) write_method(w, "cryptobot", "Crypto (CryptoBot)");
}

}  // namespace

void write_ok(Exchange& ex) {
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.EndObject();
}

void write_theme_fields(JsonWriter& w, const ThemeConfig& theme) {
    w.Key("template");
    write_string(w, theme.template_id);
    w.Key("title");
    write_string(w, theme.title);
    w.Key("greeting");
    write_string(w, theme.greeting);
    w.Key("accent_color");
    write_string(w, theme.accent_color);
}

void write_app_config(JsonWriter& w, const Settings& s, const ThemeConfig& theme) {
    w.StartObject();
    write_theme_fields(w, theme);
    w.Key("bot_username");
    write_string(w, s.bot_username);
    w.Key("mtproto_proxy");
    write_nullable(w, theme.mtproto_proxy ? &*theme.mtproto_proxy : nullptr);
    w.Key("ui");
    w.RawValue(theme.ui_json.data(), theme.ui_json.size(), rapidjson::kObjectType);
    w.Key("payment_methods");
    w.StartArray();
    write_gateway_methods(w, s);
    w.EndArray();
    w.Key("balance_enabled");
    w.Bool(s.balance_enabled);
    w.Key("hide_subscription_link");
    w.Bool(s.hide_subscription_link);
    w.Key("show_traffic_usage");
    w.Bool(s.show_traffic_usage);
    w.Key("sales_mode");
    write_string(w, s.sales_mode);
    w.EndObject();
}

void write_guest_payment_methods(JsonWriter& w, const Settings& s) {
    w.StartArray();
    write_gateway_methods(w, s);
    w.EndArray();
}

void write_plan_items(JsonWriter& w, const std::vector<Plan>& plans, const Discounts& discounts, int64_t stars_rate,
                      std::optional<int64_t> current_plan) {
    w.StartArray();
    for (const Plan& p : plans) {
        w.StartObject();
        w.Key("id");
        w.Int64(p.id);
        w.Key("public_code");
        write_string(w, p.public_code);
        w.Key("name");
        write_string(w, p.name);
        w.Key("description");
        write_string(w, p.description);
        w.Key("traffic_limit_bytes");
        if (p.traffic_limit_bytes) w.Int64(*p.traffic_limit_bytes);
        else w.Null();
        w.Key("device_limit");
        w.Int64(p.device_limit);
        w.Key("is_current");
        w.Bool(current_plan && *current_plan == p.id);
        w.Key("durations");
        w.StartArray();
        for (const PlanDuration& d : p.durations) {
            const Quote q = quote(d.price_minor, discounts, stars_rate);
            w.StartObject();
            w.Key("days");
            w.Int64(d.days);
            w.Key("months");
            w.Int64(d.months);
            w.Key("price_minor");
            w.Int64(q.final_minor);
            w.Key("base_price_minor");
            w.Int64(q.list_minor);
            w.Key("price_stars");
            w.Int64(q.stars);
            w.EndObject();
        }
        w.EndArray();
        w.EndObject();
    }
    w.EndArray();
}

}  // namespace cabinet::api
