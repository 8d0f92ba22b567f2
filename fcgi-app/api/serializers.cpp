#include "api/serializers.hpp"

#include "domain/subscription_status.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void write_user(JsonWriter& w, const Settings& s, const User& u) {
    JsonObject o(w);
    o.put("id", u.id);
    // Additive (issue 49): how the customer is known, where linked.
    o.put("telegram_id", u.telegram_id).put("email", u.email);
    o.put("first_name", u.first_name).put("username", u.username).put("language", u.language);
    o.put("currency", u.currency).put("balance_minor", u.balance_minor).put("referral_code", u.referral_code);
    o.put("personal_discount_pct", u.personal_discount_pct);
    o.put("is_trial_available", s.trial_enabled && !u.trial_used);
}

void write_subscription(JsonWriter& w, const Settings& s, const std::optional<Subscription>& sub, int64_t now) {
    if (!sub) {
        w.Null();
        return;
    }
    JsonObject o(w);
    o.put("status", to_text(effective_status(*sub, now))).put("is_trial", sub->is_trial).put("plan_name", sub->plan_name);
    o.put("start_at", iso8601_utc(sub->start_at)).put("expire_at", iso8601_utc(sub->expire_at));
    o.put("device_limit", sub->device_limit);
    o.object("traffic")
        .put("used_bytes", sub->traffic_used_bytes)
        .put("limit_bytes", sub->traffic_limit_bytes)
        .put("unlimited", sub->traffic_limit_bytes == 0);
    o.put("subscription_url", s.hide_subscription_link ? std::nullopt : sub->subscription_url);
    o.put("crypto_link", sub->crypto_link).put("autopay_enabled", sub->autopay_enabled);
}

namespace {

// The online gateways that are switched on (payments/gateway.cpp decides the same way).
void write_gateway_methods(JsonArray& methods, const Settings& s) {
    if (s.yookassa_enabled) methods.object().put("id", "yookassa").put("label", "Bank card (YooKassa)");
    if (s.cryptobot_enabled) methods.object().put("id", "cryptobot").put("label", "Crypto (CryptoBot)");
}

}  // namespace

void write_ok(Exchange& ex) { JsonObject(ex.resp.json()).put("ok", true); }

void write_theme_fields(JsonObject& o, const ThemeConfig& theme) {
    o.put("template", theme.template_id).put("title", theme.title).put("greeting", theme.greeting);
    o.put("accent_color", theme.accent_color);
}

void write_app_config(JsonWriter& w, const Settings& s, const ThemeConfig& theme) {
    JsonObject o(w);
    write_theme_fields(o, theme);
    o.put("bot_username", s.bot_username).put("mtproto_proxy", theme.mtproto_proxy).raw("ui", theme.ui_json);
    {
        auto methods = o.array("payment_methods");
        write_gateway_methods(methods, s);
    }
    o.put("balance_enabled", s.balance_enabled).put("hide_subscription_link", s.hide_subscription_link);
    o.put("show_traffic_usage", s.show_traffic_usage).put("sales_mode", s.sales_mode);
}

void write_guest_payment_methods(JsonWriter& w, const Settings& s) {
    JsonArray methods(w);
    write_gateway_methods(methods, s);
}

void write_plan_items(JsonWriter& w, const std::vector<Plan>& plans, const Discounts& discounts, int64_t stars_rate,
                      std::optional<int64_t> current_plan) {
    JsonArray items(w);
    for (const Plan& p : plans) {
        auto o = items.object();
        o.put("id", p.id).put("public_code", p.public_code).put("name", p.name).put("description", p.description);
        o.put("traffic_limit_bytes", p.traffic_limit_bytes).put("device_limit", p.device_limit);
        o.put("is_current", current_plan && *current_plan == p.id);
        auto durations = o.array("durations");
        for (const PlanDuration& d : p.durations) {
            const Quote q = quote(d.price_minor, discounts, stars_rate);
            durations.object().put("days", d.days).put("months", d.months).put("price_minor", q.final_minor)
                .put("base_price_minor", q.list_minor).put("price_stars", q.stars);
        }
    }
}

}  // namespace cabinet::api
