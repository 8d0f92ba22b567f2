// GET /api/cabinet/me: profile, current subscription, app config (SPEC "GET /me").
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_me(Exchange& ex) {
    const Account& a = ex.caller();
    const auto catalog = ex.shared.catalog.get(ex.io.db, a.catalog_version);
    const ThemeConfig& theme = catalog->theme;
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("user");
    write_user(w, ex.settings(), a.user);
    w.Key("app");
    write_app_config(w, ex.settings(), theme);
    w.Key("subscription");
    write_subscription(w, ex.settings(), a.subscription, unix_now());
    w.EndObject();
}

}  // namespace cabinet::api
