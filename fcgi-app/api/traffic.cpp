// GET /api/cabinet/traffic: current usage (from the panel when the stored figure is older
// than TRAFFIC_FRESH_S and the panel answers, else the stored one) and up to 30 daily
// cumulative snapshots, oldest first.
#include "api/handlers.hpp"
#include "app/account_reads.hpp"
#include "services/traffic_refresh.hpp"
#include "util/time.hpp"

namespace cabinet::api {

void get_traffic(Exchange& ex) {
    const Account& a = ex.caller();
    const auto& sub = a.subscription;
    JsonObject o(ex.resp.json());
    if (!sub) {
        o.put("used_bytes", 0).put("limit_bytes", 0).put("unlimited", true);
        o.array("series");
        return;
    }
    int64_t used = sub->traffic_used_bytes;
    if (const auto fresh = refresh_traffic_used(ex.io.db, ex.io.panel, ex.settings(), a.user.id, *sub, unix_now())) {
        used = *fresh;
        ex.shared.accounts.wrote(a.user.id);  // today's point below is read anew
    }
    const std::vector<TrafficDay> series = caller_traffic_series(ex);
    o.put("used_bytes", used).put("limit_bytes", sub->traffic_limit_bytes).put("unlimited", sub->traffic_limit_bytes == 0);
    auto days = o.array("series");
    for (const TrafficDay& day : series)  // "day": YYYY-MM-DD
        days.object().put("day", iso8601_utc(int64_t{day.day} * 86400).substr(0, 10)).put("used_bytes", day.used_bytes);
}

}  // namespace cabinet::api
