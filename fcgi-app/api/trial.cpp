// POST /api/cabinet/trial (SPEC "POST /trial"): the rules in services/trial.hpp; the answer
// here.
#include "api/handlers.hpp"
#include "api/serializers.hpp"
#include "services/trial.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void post_trial(Exchange& ex) {
    const Settings& s = ex.settings();
    const int64_t now = unix_now();
    const Subscription sub = take_trial(ex.io.db, ex.io.panel, s, ex.caller().user.id);
    JsonObject o(ex.resp.json());
    o.put("ok", true).put("days", s.trial_duration_days);
    write_subscription(o.key("subscription"), s, sub, now);
}

}  // namespace cabinet::api
