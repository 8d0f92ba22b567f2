// POST /api/cabinet/promocode {code}: activate a promo code (SPEC "POST /promocode"), under
// the rules of services/promo_activation.hpp. A customer's failure is 200 {ok:false, message};
// malformed input 400; too many unknown codes 429.
#include "api/handlers.hpp"
#include "errors.hpp"
#include "http/body.hpp"
#include "services/promo_activation.hpp"
#include "util/strings.hpp"

namespace cabinet::api {

void post_promocode(Exchange& ex) {
    const JsonBody body(ex.req);
    // Trimmed, then matched without regard to case (the lookup compares lower(code)): what a
    // customer pastes with a stray space or types in capitals is the same code.
    const std::string code(trim(require_string(body, "code", 1, 200)));
    if (utf8_length(code) < 2 || utf8_length(code) > 64) throw bad_request("code must be 2..64 characters");
    const PromoOutcome out = activate_promo_code(ex.io.db, ex.io.panel, ex.settings(), ex.caller().user.id, code);
    JsonObject(ex.resp.json())
        .put("ok", out.ok)
        .put("reward_type", out.reward ? std::optional(to_text(*out.reward)) : std::nullopt)
        .put("message", out.message);
}

}  // namespace cabinet::api
