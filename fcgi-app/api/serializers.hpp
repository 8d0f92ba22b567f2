#pragma once
// JSON shapes shared by several endpoints (SPEC "Resources").
#include "app/context.hpp"
#include "domain/account.hpp"
#include "domain/catalog.hpp"
#include "domain/pricing.hpp"
#include "util/json_object.hpp"

namespace cabinet::api {

// The bare answer {"ok": true} of an action with nothing else to report.
// A page of an owner's list, newest first: {items: [...], next_cursor, …}. A full page names
// where the next one starts (its last item's id, as text); a short one ends the list.
// `more(w)` adds members of the caller's after these (the payments' totals).
template <class Items, class WriteItem, class More>
void write_page(JsonWriter& w, const Items& items, int64_t limit, WriteItem write_item, More more) {
    JsonObject page(w);
    {
        JsonArray list = page.array("items");
        for (const auto& item : items) write_item(w, item);
    }
    const bool full = !items.empty() && static_cast<int64_t>(items.size()) == limit;
    page.put("next_cursor", full ? std::optional(std::to_string(items.back().id)) : std::nullopt);
    more(w);
}
template <class Items, class WriteItem>
void write_page(JsonWriter& w, const Items& items, int64_t limit, WriteItem write_item) {
    write_page(w, items, limit, write_item, [](JsonWriter&) {});
}

void write_ok(Exchange& ex);

void write_user(JsonWriter& w, const Settings& s, const User& u);
// null when the user never had a subscription
void write_subscription(JsonWriter& w, const Settings& s, const std::optional<Subscription>& sub, int64_t now);
void write_app_config(JsonWriter& w, const Settings& s, const ThemeConfig& theme);
// The owner's theme as keys of the object being written: template, title, greeting,
// accent_color (in /me's app config, GET /config and GET /public/landing alike).
void write_theme_fields(JsonObject& o, const ThemeConfig& theme);
// The "items" array of GET /plans (SPEC "Plan"), every price quoted with `discounts`; the
// public catalogue passes no discounts and no current plan, so it shows list prices.
void write_plan_items(JsonWriter& w, const std::vector<Plan>& plans, const Discounts& discounts, int64_t stars_rate,
                      std::optional<int64_t> current_plan);
// The methods a buyer without an account can use ({id, label}): the enabled online
// gateways (the ones /me's app config lists); balance and Stars need an account.
void write_guest_payment_methods(JsonWriter& w, const Settings& s);

}  // namespace cabinet::api
