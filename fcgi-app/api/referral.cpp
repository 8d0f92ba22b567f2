// GET /api/cabinet/referral: the caller's code, bot deep link and statistics (SPEC "Referral").
#include "api/handlers.hpp"
#include "app/account_reads.hpp"

namespace cabinet::api {

void get_referral(Exchange& ex) {
    const User& u = ex.caller().user;
    const ReferralStats stats = caller_referral_stats(ex);
    const Settings& s = ex.settings();

    JsonObject o(ex.resp.json());
    // The link carries the start parameter registration understands (accounts_repo: "ref_<code>").
    o.put("code", u.referral_code).put("link", "https://t.me/" + s.bot_username + "?start=ref_" + u.referral_code);
    o.put("bonus_days", s.referral_bonus_days).put("commission_percent", s.referral_percent);
    o.put("invited_count", stats.invited_count).put("earnings_minor", stats.earnings_minor);
}

}  // namespace cabinet::api
