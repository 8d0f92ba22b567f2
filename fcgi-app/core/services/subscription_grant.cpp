#include "services/subscription_grant.hpp"

#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "domain/subscription_status.hpp"
#include "panel/panel_mark.hpp"
#include "util/json.hpp"
#include "util/time.hpp"

namespace cabinet {
namespace {

std::string snapshot_json(const std::string& name, const std::string& code, bool trial) {
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    w.StartObject();
    w.Key("name");
    write_string(w, name);
    if (!code.empty()) {
        w.Key("public_code");
        write_string(w, code);
    }
    w.Key("trial");
    w.Bool(trial);
    w.EndObject();
    return buf.GetString();
}

std::string panel_username(const Account& a) {
    return a.user.telegram_id ? "tg_" + std::to_string(*a.user.telegram_id) : "web_" + std::to_string(a.user.id);
}

// The local half of a panel-first write: over the revision `locked` read, plus its
// history row and the write mark the panel took with it. Fills in next.revision.
void write_locally(pqxx::work& txn, const LockedAccount& locked, Subscription& next, const std::string& snapshot,
                   std::string_view source, std::optional<int64_t> transaction_id, int64_t days,
                   const std::string& mark) {
    const SubscriptionWrite w = subscription_write(locked);
    const auto written = exec_prepared1(txn, "write_subscription", locked.user.id, std::string(to_text(next.status)), next.is_trial, next.plan_id,
                                        snapshot, next.start_at, next.expire_at, next.device_limit,
                                        next.traffic_limit_bytes, next.traffic_used_bytes, next.panel_uuid,
                                        next.short_uuid, next.subscription_url, w.read_revision, std::string(source),
                                        transaction_id, days, w.expire_before, mark);
    next.revision = written_revision(locked, written[0]);
}

}  // namespace

SubscriptionWrite subscription_write(const LockedAccount& locked) {
    const auto& cur = locked.subscription;
    SubscriptionWrite w;
    if (cur) {
        w.read_revision = cur->revision;
        w.expire_before = cur->expire_at;
    }
    return w;
}

int64_t written_revision(const LockedAccount& locked, const pqxx::field& revision) {
    if (revision.is_null())
        throw std::logic_error("subscription of user " + std::to_string(locked.user.id) +
                               " changed after it was read under the lock: write refused (a writer broke the locking rule)");
    return revision.as<int64_t>();
}

PanelUser ensure_panel_user(PanelClient& panel, const Account& account, const PanelUserState& state) {
    const auto& sub = account.subscription;
    if (sub && !sub->panel_uuid.empty()) {
        if (auto updated = panel.update_user(sub->panel_uuid, state)) return *updated;
    }
    if (account.user.telegram_id) {
        // A panel user made by the bot, or by an earlier attempt whose local commit failed.
        for (const auto& existing : panel.users_by_telegram_id(*account.user.telegram_id))
            if (auto updated = panel.update_user(existing.uuid, state)) return *updated;
    } else if (auto found = panel.user_by_username(panel_username(account))) {
        // A web account's panel user made by an earlier attempt whose local commit failed:
        // its username is taken, so creating another would be refused. Looked up with the
        // contract's GET rather than a PATCH by username: older panels answer that PATCH
        // for an unknown username with 500, which would fail every first grant.
        if (auto updated = panel.update_user(found->uuid, state)) return *updated;
    }
    PanelUserState named = state;
    if (named.description.empty()) named.description = panel_description(account.user.id);
    return panel.create_user(panel_username(account), account.user.telegram_id, named);
}

GrantSpec::Traffic paid_period_traffic(const Settings& s) {
    return s.reset_traffic_on_payment ? GrantSpec::Traffic::reset : GrantSpec::Traffic::restore_when_out;
}

PlannedGrant plan_grant(PanelClient& panel, const LockedAccount& locked, const GrantSpec& spec) {
    const int64_t now = locked.locked_at;
    const auto& cur = locked.subscription;
    const bool keep = spec.keep_current_plan && cur;
    // Paid time is added to paid time left; a trial's remainder is not carried into a plan.
    const bool running = cur && cur->expire_at > now && cur->status != SubscriptionStatus::disabled &&
                         (keep || spec.trial || !cur->is_trial);

    Subscription next;
    next.is_trial = keep ? cur->is_trial : spec.trial;
    next.status = next.is_trial ? SubscriptionStatus::trial : SubscriptionStatus::active;
    next.plan_name = keep ? cur->plan_name : spec.plan_name;
    next.plan_id = keep ? cur->plan_id : spec.plan_id;
    next.start_at = running ? cur->start_at : now;
    next.expire_at = (running ? cur->expire_at : now) + spec.days * kSecondsPerDay;
    next.device_limit = keep ? cur->device_limit : spec.device_limit;
    next.traffic_limit_bytes = keep ? cur->traffic_limit_bytes : spec.traffic_limit_bytes;
    next.traffic_used_bytes = cur ? cur->traffic_used_bytes : 0;

    // The mark goes to the panel with this write and to PostgreSQL with the local one.
    std::string mark = new_panel_mark();
    PanelUser pu = ensure_panel_user(panel, locked,
                                     PanelUserState{next.expire_at, next.traffic_limit_bytes, next.device_limit, true,
                                                    spec.traffic_strategy, panel_description(locked.user.id, mark)});
    // After the write, so a panel that refuses it changes nothing; a repeat is harmless.
    const bool out_of_traffic = next.traffic_limit_bytes > 0 && pu.used_traffic_bytes >= next.traffic_limit_bytes;
    if (pu.used_traffic_bytes > 0 && (spec.traffic == GrantSpec::Traffic::reset ||
                                      (spec.traffic == GrantSpec::Traffic::restore_when_out && out_of_traffic)))
        pu = panel.reset_traffic(pu.uuid);
    next.panel_uuid = pu.uuid;
    next.short_uuid = pu.short_uuid;
    next.subscription_url = pu.subscription_url;
    next.traffic_used_bytes = pu.used_traffic_bytes;

    PlannedGrant planned;
    planned.snapshot = keep ? snapshot_json(cur->plan_name, "", cur->is_trial)
                            : snapshot_json(spec.plan_name, spec.plan_code, spec.trial);
    planned.source = spec.source.empty() ? "grant" : spec.source;
    planned.next = std::move(next);
    planned.mark = std::move(mark);
    return planned;
}

Subscription grant_subscription(pqxx::work& txn, PanelClient& panel, const LockedAccount& locked, const GrantSpec& spec) {
    PlannedGrant planned = plan_grant(panel, locked, spec);
    write_locally(txn, locked, planned.next, planned.snapshot, planned.source, spec.transaction_id, spec.days,
                  planned.mark);
    return std::move(planned.next);
}

void take_back_days(pqxx::work& txn, PanelClient& panel, const LockedAccount& locked, int64_t days,
                    int64_t transaction_id) {
    const auto& cur = locked.subscription;
    if (!cur || days <= 0) return;
    Subscription next = *cur;
    next.expire_at = std::max(locked.locked_at, cur->expire_at - days * kSecondsPerDay);
    if (next.expire_at <= locked.locked_at) next.status = SubscriptionStatus::expired;
    // The panel refuses an expiry in the past: a subscription with nothing left is disabled
    // there instead (the next grant enables it again).
    const std::string mark = new_panel_mark();
    const std::string description = panel_description(locked.user.id, mark);
    if (!cur->panel_uuid.empty() && next.status == SubscriptionStatus::expired) panel.disable_user(cur->panel_uuid, description);
    else if (!cur->panel_uuid.empty())  // the owner's block stays: a refund never enables
        panel.update_user(cur->panel_uuid, PanelUserState{next.expire_at, next.traffic_limit_bytes, next.device_limit,
                                                          cur->status != SubscriptionStatus::disabled, std::nullopt, description});
    write_locally(txn, locked, next, snapshot_json(cur->plan_name, "", cur->is_trial), "refund", transaction_id, -days,
                  mark);
}

}  // namespace cabinet
