// GET /api/cabinet/connection: the subscription link and the client apps' import links.
#include "api/connection_links.hpp"
#include "api/handlers.hpp"
#include "domain/subscription_status.hpp"
#include "errors.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_connection(Exchange& ex) {
    const auto& sub = ex.caller().subscription;
    if (!sub || !is_usable(*sub, unix_now()) || !sub->subscription_url) throw not_found("no active subscription", "no_subscription");
    const Settings& s = ex.settings();
    const std::string& url = *sub->subscription_url;
    JsonObject o(ex.resp.json());
    o.put("subscription_url", s.hide_subscription_link ? std::nullopt : std::optional(url));
    o.put("expires_at", iso8601_utc(sub->expire_at));
    // Import links stay available with a hidden link: they are how the user connects.
    write_deep_links(o.key("deep_links"), url, sub->crypto_link);
    o.put("hide_link", s.hide_subscription_link);
    write_apps(o.key("apps"), s, url, sub->crypto_link);
}

}  // namespace cabinet::api
