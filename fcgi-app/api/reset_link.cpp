// POST /api/cabinet/subscription/reset-devices (alias reset-link): the rules in
// services/link_reset.hpp; the new link and its deep links answered here.
#include "api/connection_links.hpp"
#include "api/handlers.hpp"
#include "services/link_reset.hpp"

namespace cabinet::api {

void post_reset_link(Exchange& ex) {
    const std::string url = reset_subscription_link(ex.io.db, ex.io.panel, ex.caller().user.id);
    const Settings& s = ex.settings();
    JsonObject o(ex.resp.json());
    o.put("ok", true).put("subscription_url", s.hide_subscription_link ? std::nullopt : std::optional(url));
    write_deep_links(o.key("deep_links"), url, "");  // the old crypto link wrapped the revoked URL
}

}  // namespace cabinet::api
