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
#include "jobs/job_status.hpp"
#include "services/shop_overview.hpp"

namespace cabinet::api {
namespace {

// The jobs table's word for the newest "backup now", as the page says it.
const char* backup_status(const std::optional<BackupJobState>& job, bool has_archive) {
    if (!job) return has_archive ? "completed" : nullptr;
    switch (state_from_text<JobStatus>(job->status)) {
        case JobStatus::pending: return "queued";
        case JobStatus::running: return "running";
        case JobStatus::dead: return "failed";
        case JobStatus::done: break;
    }
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

    const auto& m = o.maintenance;
    const auto& ledger = o.ledger_check;

    JsonObject out(ex.resp.json());
    out.put("currency", s.default_currency);
    out.object("revenue").put("today_minor", day(0)).put("yesterday_minor", day(1));
    out.object("subscriptions").put("active", f.active_subscriptions).put("trial", f.trial_subscriptions);
    out.put("new_customers_24h", f.new_customers_24h);
    out.object("trial_conversion").put("trials", f.trials_30d).put("converted", f.converted_30d).put("pct", pct);
    {
        JsonArray revenue = out.array("revenue_30d");
        for (const auto& [d, amount] : f.revenue_days) revenue.object().put("day", d).put("amount_minor", amount);
    }
    out.object("panel")
        .put("ok", m.panel_checked_at ? std::optional(m.panel_failures == 0) : std::nullopt)
        .time("checked_at", m.panel_checked_at)
        .put("error", m.panel_last_error.empty() ? std::nullopt : std::optional(m.panel_last_error));
    out.object("worker").put("ok", o.worker_ok).time("heartbeat_at", o.worker_heartbeat_at);
    out.object("backup")
        .time("at", o.backup_at)
        .put("status", backup ? std::optional<std::string>(backup) : std::nullopt)
        .put("error", backup_failed ? std::optional(o.backup_job->last_error) : std::nullopt);
    out.object("ledger")
        .time("checked_at", ledger ? std::optional(ledger->checked_at) : std::nullopt)
        .put("problems", ledger ? std::optional(ledger->problems) : std::nullopt)
        .put("first_problem", ledger && ledger->problems > 0 ? std::optional(ledger->first_problem) : std::nullopt);
    out.object("maintenance").put("enabled", m.enabled);
}

}  // namespace cabinet::api
