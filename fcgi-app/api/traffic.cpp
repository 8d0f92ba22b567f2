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
    auto& w = ex.resp.json();
    if (!sub) {
        w.StartObject();
        w.Key("used_bytes");
        w.Int64(0);
        w.Key("limit_bytes");
        w.Int64(0);
        w.Key("unlimited");
        w.Bool(true);
        w.Key("series");
        w.StartArray();
        w.EndArray();
        w.EndObject();
        return;
    }
    int64_t used = sub->traffic_used_bytes;
    if (const auto fresh = refresh_traffic_used(ex.io.db, ex.io.panel, ex.settings(), a.user.id, *sub, unix_now())) {
        used = *fresh;
        ex.shared.accounts.wrote(a.user.id);  // today's point below is read anew
    }
    const std::vector<TrafficDay> series = caller_traffic_series(ex);
    w.StartObject();
    w.Key("used_bytes");
    w.Int64(used);
    w.Key("limit_bytes");
    w.Int64(sub->traffic_limit_bytes);
    w.Key("unlimited");
    w.Bool(sub->traffic_limit_bytes == 0);
    w.Key("series");
    w.StartArray();
    for (const TrafficDay& day : series) {
        w.StartObject();
        w.Key("day");
        write_string(w, iso8601_utc(int64_t{day.day} * 86400).substr(0, 10));  // YYYY-MM-DD
        w.Key("used_bytes");
        w.Int64(day.used_bytes);
        w.EndObject();
    }
    w.EndArray();
    w.EndObject();
}

}  // namespace cabinet::api
