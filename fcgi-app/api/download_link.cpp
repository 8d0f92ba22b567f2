// GET /dl?to=<scheme-url> (SPEC-GAPS): Telegram's in-app browser cannot open custom URL
// schemes, so the mini-app's "Add subscription" opens this tiny page, which hands the
// import link to the system. Only the supported clients' schemes are accepted (anything
// else is 400: this must not become an open redirect), and on Android the link becomes an
// intent:// URL, which Chrome opens where a bare custom scheme is blocked.
#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/query.hpp"
#include "util/strings.hpp"

namespace cabinet::api {
namespace {

constexpr const char* kSchemes[] = {"happ", "v2raytun", "hiddify", "streisand"};

}  // namespace

void get_download_link(Exchange& ex) {
    const auto to_param = query_param(ex.req.query, "to");
    if (!to_param || to_param->empty()) throw bad_request("to is required");
    const std::string& to = *to_param;
    if (to.size() > 4096 || to.find_first_of("\r\n\t <>\"'\\`") != std::string::npos) throw bad_request("to is not a valid URL");
    std::string scheme;
    for (const char* s : kSchemes)
        if (starts_with(to, std::string(s) + "://")) scheme = s;
    if (scheme.empty()) throw bad_request("only the supported VPN clients' links can be opened");

    std::string target = to;
    if (ex.req.user_agent.find("Android") != std::string::npos)
        target = "intent://" + to.substr(scheme.size() + 3) + "#Intent;scheme=" + scheme + ";end";
    const std::string link = html_escape(target);
    const std::string page =
        "<!doctype html><html><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        "<meta http-equiv=\"refresh\" content=\"0;url=" + link + "\"><title>Opening the app</title>"
        "<style>body{font-family:system-ui,sans-serif;text-align:center;margin-top:30vh}"
        "a{display:inline-block;padding:.8rem 1.4rem;border-radius:.6rem;background:#2481cc;color:#fff;"
        "text-decoration:none}</style></head><body><p>Opening the app&hellip;</p>"
        "<p><a href=\"" + link + "\">Open</a></p></body></html>";
    ex.resp.text("text/html; charset=utf-8", page);
}

}  // namespace cabinet::api
