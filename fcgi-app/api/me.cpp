// GET /api/cabinet/me: profile, current subscription, app config (SPEC "GET /me").
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_me(Exchange& ex) {
    const Account& a = ex.caller();
    const auto catalog = ex.shared.catalog.get(ex.io.db, a.catalog_version);
    const ThemeConfig& theme = catalog->theme;
    JsonObject o(ex.resp.json());
    write_user(o.key("user"), ex.settings(), a.user);
    write_app_config(o.key("app"), ex.settings(), theme);
    write_subscription(o.key("subscription"), ex.settings(), a.subscription, unix_now());
}

}  // namespace cabinet::api
