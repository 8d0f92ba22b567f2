// POST /api/cabinet/subscription/reset-devices (alias reset-link): the rules in
// services/link_reset.hpp; the new link and its deep links answered here.
#include "api/connection_links.hpp"
#include "api/handlers.hpp"
#include "services/link_reset.hpp"

namespace cabinet::api {

void post_reset_link(Exchange& ex) {
    const std::string url = reset_subscription_link(ex.io.db, ex.io.panel, ex.caller().user.id);
    const Settings& s = ex.settings();
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("ok");
    w.Bool(true);
    w.Key("subscription_url");
    write_nullable(w, s.hide_subscription_link ? nullptr : &url);
    w.Key("deep_links");
    write_deep_links(w, url, "");  // the old crypto link wrapped the revoked URL
    w.EndObject();
}

}  // namespace cabinet::api
