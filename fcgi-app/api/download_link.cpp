// GET /dl?to=<import-link> (SPEC-GAPS): Telegram's in-app browser cannot open custom URL
// schemes, so the mini-app's "Add subscription" opens this tiny page, which hands the
// import link to the system. It opens exactly the import links GET /connection hands out
// (connection_links.cpp): a supported client's prefix followed by a subscription URL under
// SUBSCRIPTION_PUBLIC_URL, or the panel's encrypted Happ link (crypto_link) of one of our
// subscriptions, which cannot be read but can be looked up. Anything else is 400: this page
// must not carry someone else's
// VPN profile (or any other payload) under our name. On Android the link becomes an
// intent:// URL, which Chrome opens where a bare custom scheme is blocked. nginx keeps the
// query (a subscription URL is a credential) out of its access log.
#include "api/connection_links.hpp"
#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/query.hpp"
#include "services/issued_links.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

// Happ's encrypted subscription links (crypt, crypt2, crypt3 ...), as the panel makes them.
constexpr std::string_view kHappCryptoPrefix = "happ://crypt";

// `url` is a link under `base` (scheme://host[:port][/path]): the base is followed by '/',
// so "https://sub.example.com.evil.test/" or "https://sub.example.com@evil.test/" fail.
bool under_base(std::string_view url, std::string_view base) {
    return !base.empty() && url.size() > base.size() + 1 && starts_with(url, base) && url[base.size()] == '/';
}

}  // namespace

void get_download_link(Exchange& ex) {
    const auto to_param = query_param(ex.req.query, "to");
    if (!to_param || to_param->empty()) throw bad_request("to is required");
    const std::string& to = *to_param;
    if (to.size() > 4096 || has_control_chars(to) || to.find_first_of(" <>\"'\\`") != std::string::npos) throw bad_request("to is not a valid URL");
    std::string scheme;
    if (starts_with(to, kHappCryptoPrefix)) {
        const bool ours = crypto_link_ours(ex.io.db, to);
        if (!ours) throw bad_request("only this shop's subscription links can be opened");
        scheme = "happ";
    } else {
        const auto link = parse_import_link(to);
        if (!link) throw bad_request("only the supported VPN clients' import links can be opened");
        if (!under_base(link->subscription_url, ex.settings().subscription_public_url))
            throw bad_request("only this shop's subscription links can be opened");
        scheme = link->scheme;
    }

    std::string target = to;
    if (ex.req.user_agent.find("Android") != std::string::npos)
        target = "intent://" + to.substr(scheme.size() + 3) + "#Intent;scheme=" + scheme + ";end";
    const std::string href = html_escape(target);
    const std::string page =
        "<!doctype html><html><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta http-equiv=\"refresh\" content=\"0;url=" + href + "\"><title>Opening the app</title>"
        "<style>body{font-family:system-ui,sans-serif;text-align:center;margin-top:30vh}"
        "a{display:inline-block;padding:.8rem 1.4rem;border-radius:.6rem;background:#2481cc;color:#fff;"
        "text-decoration:none}</style></head><body><p>Opening the app&hellip;</p>"
        "<p><a href=\"" + href + "\">Open</a></p></body></html>";
    ex.resp.text("text/html; charset=utf-8", page);
}

}  // namespace cabinet::api
