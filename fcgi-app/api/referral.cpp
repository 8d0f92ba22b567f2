// GET /api/cabinet/referral: the caller's code, bot deep link and statistics (SPEC "Referral").
#include "api/handlers.hpp"
#include "app/account_reads.hpp"

namespace cabinet::api {

void get_referral(Exchange& ex) {
    const User& u = ex.caller().user;
    const ReferralStats stats = caller_referral_stats(ex);
    const Settings& s = ex.settings();

    auto& w = ex.resp.json();
    w.StartObject();
    w.Key("code");
    write_string(w, u.referral_code);
    // The same start parameter registration understands (accounts_repo: "ref_<code>").
    w.Key("link");
    write_string(w, "https://t.me/" + s.bot_username + "?start=ref_" + u.referral_code);
    w.Key("bonus_days");
    w.Int64(s.referral_bonus_days);
    w.Key("commission_percent");
    w.Int64(s.referral_percent);
    w.Key("invited_count");
    w.Int64(stats.invited_count);
    w.Key("earnings_minor");
    w.Int64(stats.earnings_minor);
    w.EndObject();
}

}  // namespace cabinet::api
