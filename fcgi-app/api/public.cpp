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
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("currency");
    write_string(w, s.default_currency);
    w.Key("items");
    write_public_plans(*ex.shared.catalog.get(ex.io.db, std::nullopt), s, w);
    // What a guest can pay with (POST /auth/guest/purchase): the online gateways only.
    w.Key("payment_methods");
    write_guest_payment_methods(w, s);
    w.EndObject();
}

// Served whether or not the web cabinet is on: the landing advertises the bot as well.
void get_public_landing(Exchange& ex) {
    const Settings& s = ex.settings();
    const auto catalog = ex.shared.catalog.get(ex.io.db, std::nullopt);
    const ThemeConfig& t = catalog->theme;
    const Landing l = landing_from_ui(t.ui_json, s.web_cabinet_enabled);
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("enabled");
    w.Bool(l.enabled);
    write_theme_fields(w, t);
    w.Key("headline");
    write_string(w, l.headline);
    w.Key("subheadline");
    write_string(w, l.subheadline);
    w.Key("features");
    write_landing_features(w, l.features);
    w.Key("faq");
    write_landing_faq(w, l.faq);
    w.Key("cta_target");
    write_string(w, l.cta_target);
    w.Key("bot_username");
    write_string(w, s.bot_username);
    w.Key("cabinet_url");
    write_string(w, s.web_cabinet_url);
    w.Key("currency");
    write_string(w, s.default_currency);
    w.Key("plans");
    write_public_plans(*catalog, s, w);
    w.EndObject();
}

}  // namespace cabinet::api
