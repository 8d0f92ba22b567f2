// POST /api/cabinet/auth/guest/purchase {email, plan_id, days, method, language?, return_url?}
// and POST /api/cabinet/auth/login/auto {token}: buying without an account, as the
// original's web cabinet does ("Buy now"), under the rules of services/guest_purchase.hpp.
//
// The purchase answers {ok, transaction_id, redirect_url, payment_url (the same page, the
// original's name), auto_login_token}: the provider's page, and a one-time sign-in that works
// only in this browser (the __Host- binding cookie set here) and only for an account this
// purchase made. For an address we knew the token is a random one nothing accepts, so the
// answer does not tell who has an account. Online gateways only: balance and Stars need an
// account that exists (400). Bad input changes nothing; a gateway failure leaves neither
// the account nor the payment behind (services/online_checkout.hpp withdraws them).
#include "api/handlers.hpp"
#include "api/order_choice.hpp"
#include "api/web_session.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "payments/gateway.hpp"
#include "services/guest_purchase.hpp"
#include "services/order.hpp"
#include "util/strings.hpp"
#include "util/web_tokens.hpp"

namespace cabinet::api {
namespace {

// scheme://host[:port] of a base URL ("" when it has none).
std::string origin_of(const std::string& url) {
    const size_t scheme = url.find("://");
    if (scheme == std::string::npos) return {};
    const size_t path = url.find('/', scheme + 3);
    return path == std::string::npos ? url : url.substr(0, path);
}

// Where the buyer comes back: the page the purchase started from when it is one of the
// shop's own (the web cabinet's origin), else the web cabinet. Never another site: the
// payment's id goes along.
std::string return_page(const Settings& s, const std::optional<std::string>& asked) {
    const std::string fallback = s.web_cabinet_url + "/";
    const std::string origin = origin_of(s.web_cabinet_url);
    if (!asked || origin.empty()) return fallback;
    std::string page = *asked;
    if (const size_t hash = page.find('#'); hash != std::string::npos) page.resize(hash);
    const bool ours = page.rfind(origin + "/", 0) == 0 && !has_control_chars(page) &&
                      page.find_first_of(" \\") == std::string::npos;
    return ours ? page : fallback;
}

}  // namespace

void post_auth_guest_purchase(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);  // 403 unless WEB_CABINET_ENABLED
    const Settings& s = ex.settings();
    const JsonBody body(ex.req);
    const std::string email = require_email(body);
    const std::string method = require_string(body, "method", 1, 32);
    if (method == "balance" || method == "stars")
        throw bad_request("a purchase without an account is paid online: choose a payment method other than " + method,
                          "guest_online_only");
    if (!make_gateway(method, s)) throw bad_request("payment method " + method + " is not available", "method_unavailable");
    const OrderChoice choice = read_order_choice(body, s.sales_mode);
    const auto language = optional_string(body, "language", 16);
    const std::string lang = language && language->rfind("en", 0) == 0 ? "en" : "ru";
    const std::string back = return_page(s, optional_string(body, "return_url", 512));
    auth.count_guest_purchase(ex.req.remote_addr, email);
    const std::string browser = bind_browser(ex, kGuestSignInTtlS);

    GuestPurchaseRequest req;
    req.email = email;
    req.language = lang;
    req.method = method;
    req.choice = choice;
    req.return_page = back;
    req.browser_hash = opaque_token_hash(browser);
    const GuestPurchaseResult out = guest_purchase(ex.io.db, s, &ex.shared.checkout_slots, req);
    // Same shape for a known address: a token nothing accepts.
    const std::string token = out.token.empty() ? new_opaque_token() : out.token;
    JsonObject(ex.resp.json())
        .put("ok", true)
        .put("transaction_id", out.transaction_id)
        .put("redirect_url", out.redirect_url)
        .put("payment_url", out.redirect_url)
        .put("auto_login_token", token);
}

void post_auth_login_auto(Exchange& ex) {
    WebAuth auth = web_auth_for(ex);
    const JsonBody body(ex.req);
    const std::string token = require_string(body, "token", 1, 256);
    const std::string browser = browser_binding(ex.req);
    // Without the buying browser's cookie there is nothing to match: refused as any other.
    write_session(ex, auth.guest_sign_in(ex.req.remote_addr, token, browser.empty() ? "-" : opaque_token_hash(browser)));
}

}  // namespace cabinet::api
