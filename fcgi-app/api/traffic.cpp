// GET /api/cabinet/traffic: current usage (from the panel when the stored figure is older
// than TRAFFIC_FRESH_S and the panel answers, else the stored one) and up to 30 daily
// cumulative snapshots, oldest first.
#include <spdlog/spdlog.h>

#include "api/handlers.hpp"
#include "app/account_reads.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
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
    // The panel is asked only when the stored figure is older than TRAFFIC_FRESH_S (issue
    // 17: the chart's reloads cost the panel nothing in between).
    const bool stale = unix_now() - sub->traffic_synced_at >= ex.settings().traffic_fresh_s;
    if (!sub->panel_uuid.empty() && stale) {
        try {
            if (auto pu = ex.io.panel.get_user(sub->panel_uuid)) {
                used = pu->used_traffic_bytes;
                ex.io.db.write([&](pqxx::work& txn) {
                    exec_prepared(txn, "set_traffic_used", a.user.id, used);
                    exec_prepared(txn, "upsert_traffic_snapshot", a.user.id, used);
                });
                ex.shared.accounts.wrote(a.user.id);  // today's point below is read anew
            }
        } catch (const PanelError& e) {
            spdlog::warn("{} traffic: panel unavailable, showing the last synced value: {}", ex.req.request_id, e.why());
        }
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
