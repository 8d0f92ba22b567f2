// GET /api/cabinet/public/plans and GET /api/cabinet/public/landing (SPEC-GAPS "Cabinet
// shapes"): what a guest sees. The catalogue is GET /plans' with list prices: no user, so
// no personal, group, promo or sale discount (the price a buyer pays is quoted after login).
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "domain/landing.hpp"
#include "errors.hpp"

namespace cabinet::api {
namespace {

void write_public_plans(const Catalog& catalog, const Settings& s, JsonWriter& w) {
    write_plan_items(w, catalog.plans, Discounts{}, s.stars_rate_minor, std::nullopt);
}

}  // namespace

void get_public_plans(Exchange& ex) {
    const Settings& s = ex.settings();
    if (!s.web_cabinet_enabled) throw forbidden("web cabinet is disabled", "web_cabinet_off");
    JsonObject o(ex.resp.json());
    o.put("currency", s.default_currency);
    write_public_plans(*ex.shared.catalog.get(ex.io.db, std::nullopt), s, o.key("items"));
    // What a guest can pay with (POST /auth/guest/purchase): the online gateways only.
    write_guest_payment_methods(o.key("payment_methods"), s);
}

// Served whether or not the web cabinet is on: the landing advertises the bot as well.
void get_public_landing(Exchange& ex) {
    const Settings& s = ex.settings();
    const auto catalog = ex.shared.catalog.get(ex.io.db, std::nullopt);
    const ThemeConfig& t = catalog->theme;
    const Landing l = landing_from_ui(t.ui_json, s.web_cabinet_enabled);
    JsonObject o(ex.resp.json());
    o.put("enabled", l.enabled);
    write_theme_fields(o, t);
    o.put("headline", l.headline).put("subheadline", l.subheadline);
    write_landing_features(o.key("features"), l.features);
    write_landing_faq(o.key("faq"), l.faq);
    o.put("cta_target", l.cta_target).put("bot_username", s.bot_username).put("cabinet_url", s.web_cabinet_url);
    o.put("currency", s.default_currency);
    write_public_plans(*catalog, s, o.key("plans"));
}

}  // namespace cabinet::api
