// The owner's Overview (services/shop_overview.hpp; docs/api.md "Overview"): the owner's and
// the viewer's (routes.cpp).
//   GET /api/admin/overview → {currency, revenue: {today_minor, yesterday_minor},
//       subscriptions: {active, trial}, new_customers_24h,
//       trial_conversion: {trials, converted, pct}, revenue_30d: [{day, amount_minor}],
//       panel: {ok, checked_at, error}, worker: {ok, heartbeat_at},
//       backup: {at, status, error}, ledger: {checked_at, problems, first_problem},
//       maintenance: {enabled}}
// Revenue is money from outside (completed payments through Stars or a gateway), by the
// day of SHOP_TIMEZONE; the conversion is of trials begun in the last 30 days.
#include <cmath>

#include "api/handlers.hpp"
#include "services/shop_overview.hpp"
#include "util/json_fields.hpp"

namespace cabinet::api {
namespace {

// The jobs table's word for the newest "backup now", as the page says it.
const char* backup_status(const std::optional<BackupJobState>& job, bool has_archive) {
    if (!job) return has_archive ? "completed" : nullptr;
    if (job->status == "pending") return "queued";
    if (job->status == "running") return "running";
    if (job->status == "dead") return "failed";
    return "completed";
}

}  // namespace

void get_admin_overview(Exchange& ex) {
    const Settings& s = ex.settings();
    const ShopOverview o = shop_overview(ex.io.db, ex.io.redis, s);
    const auto& f = o.figures;
    const auto day = [&](size_t back) { return f.revenue_days.size() > back ? f.revenue_days[f.revenue_days.size() - 1 - back].second : 0; };

    // One decimal, computed from the two counts it is made of.
    const double pct = f.trials_30d ? std::round(1000.0 * static_cast<double>(f.converted_30d) /
                                                 static_cast<double>(f.trials_30d)) / 10.0
                                    : 0.0;
    const char* backup = backup_status(o.backup_job, o.backup_at.has_value());
    const bool backup_failed = o.backup_job && !o.backup_job->last_error.empty();

    auto& w = ex.resp.json();
    w.StartObject();
    put_text(w, "currency", s.default_currency);
    w.Key("revenue");
    w.StartObject();
    put_int(w, "today_minor", day(0));
    put_int(w, "yesterday_minor", day(1));
    w.EndObject();
    w.Key("subscriptions");
    w.StartObject();
    put_int(w, "active", f.active_subscriptions);
    put_int(w, "trial", f.trial_subscriptions);
    w.EndObject();
    put_int(w, "new_customers_24h", f.new_customers_24h);
    w.Key("trial_conversion");
    w.StartObject();
    put_int(w, "trials", f.trials_30d);
    put_int(w, "converted", f.converted_30d);
    w.Key("pct");
    w.Double(pct);
    w.EndObject();
    w.Key("revenue_30d");
    w.StartArray();
    for (const auto& [d, amount] : f.revenue_days) {
        w.StartObject();
        put_text(w, "day", d);
        put_int(w, "amount_minor", amount);
        w.EndObject();
    }
    w.EndArray();
    w.Key("panel");
    w.StartObject();
    w.Key("ok");
    if (o.maintenance.panel_checked_at) w.Bool(o.maintenance.panel_failures == 0);
    else w.Null();
    put_time(w, "checked_at", o.maintenance.panel_checked_at);
    put_text(w, "error", o.maintenance.panel_last_error.empty() ? std::nullopt : std::optional(o.maintenance.panel_last_error));
    w.EndObject();
    w.Key("worker");
    w.StartObject();
    put_bool(w, "ok", o.worker_ok);
    put_time(w, "heartbeat_at", o.worker_heartbeat_at);
    w.EndObject();
    w.Key("backup");
    w.StartObject();
    put_time(w, "at", o.backup_at);
    put_text(w, "status", backup ? std::optional<std::string>(backup) : std::nullopt);
    put_text(w, "error", backup_failed ? std::optional(o.backup_job->last_error) : std::nullopt);
    w.EndObject();
    w.Key("ledger");
    w.StartObject();
    put_time(w, "checked_at", o.ledger_check ? std::optional(o.ledger_check->checked_at) : std::nullopt);
    put_int(w, "problems", o.ledger_check ? std::optional(o.ledger_check->problems) : std::nullopt);
    put_text(w, "first_problem", o.ledger_check && o.ledger_check->problems > 0
                                     ? std::optional(o.ledger_check->first_problem)
                                     : std::nullopt);
    w.EndObject();
    w.Key("maintenance");
    w.StartObject();
    put_bool(w, "enabled", o.maintenance.enabled);
    w.EndObject();
    w.EndObject();
}

}  // namespace cabinet::api
