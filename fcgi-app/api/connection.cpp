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
    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("subscription_url");
    write_nullable(w, s.hide_subscription_link ? nullptr : &url);
    w.Key("expires_at");
    write_string(w, iso8601_utc(sub->expire_at));
    // Import links stay available with a hidden link: they are how the user connects.
    w.Key("deep_links");
    write_deep_links(w, url, sub->crypto_link);
    w.Key("hide_link");
    w.Bool(s.hide_subscription_link);
    w.Key("apps");
    write_apps(w, s, url, sub->crypto_link);
    w.EndObject();
}

}  // namespace cabinet::api
