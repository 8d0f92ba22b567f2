#include "services/customer_actions.hpp"

#include <spdlog/spdlog.h>

#include <array>
#include <utility>

#include "db/accounts_repo.hpp"
#include "db/audit_repo.hpp"
#include "db/ledger_repo.hpp"
#include "db/prepared.hpp"
#include "errors.hpp"
#include "jobs/job_queue.hpp"
#include "services/admin_action_keys.hpp"
#include "services/customer_search.hpp"
#include "services/field_checks.hpp"
#include "services/panel_restore.hpp"
#include "services/subscription_grant.hpp"
#include "services/user_messages.hpp"
#include "util/json_object.hpp"
#include "util/strings.hpp"

namespace cabinet {
namespace {

using Kind = CustomerActionKind;
constexpr std::array<std::pair<Kind, const char*>, 12> kNames{{
    // money, time and price
    {Kind::balance, "balance"}, {Kind::extend, "extend"}, {Kind::grant, "grant"},
    {Kind::discount, "discount"}, {Kind::promo_group, "promo-group"},
    // the panel
    {Kind::reset_devices, "reset-devices"}, {Kind::unbind_device, "unbind-device"}, {Kind::reset_link, "reset-link"},
    // the account, and the worker's jobs
    {Kind::block, "block"}, {Kind::unblock, "unblock"}, {Kind::sync, "sync"}, {Kind::message, "message"},
}};

constexpr int64_t kMaxDays = 3650;

// The subscription's panel user, which the panel's actions need.
const std::string& panel_uuid_of(const LockedAccount& locked) {
    if (!locked.subscription || locked.subscription->panel_uuid.empty())
        throw ApiError(409, "the customer has no subscription on the panel yet");
    return locked.subscription->panel_uuid;
}

// Each action below does its work under the customer's lock and adds what changed to the
// audit entry's object (`o`, already holding the reason).
struct Doing {
    pqxx::work& txn;
    PanelClient& panel;
    const Settings& settings;
    const LockedAccount& locked;
    const CustomerAction& a;
    const ActionCall& call;
    JsonObject& o;
};

void change_balance(const Doing& d) {
    const int64_t before = d.locked.user.balance_minor;
    if (!move_balance(d.txn, d.locked.user.id, d.a.amount, LedgerReason::admin, std::nullopt, d.a.reason))
        throw ApiError(422, "delta_minor takes " + std::to_string(-d.a.amount) + " but the balance holds only " +
                                std::to_string(before));
    d.o.put("before_minor", before).put("after_minor", before + d.a.amount);
}

void grant_days(const Doing& d, GrantSpec spec) {
    const PanelRestore restore(d.panel, d.locked);
    const int64_t before = d.locked.subscription ? d.locked.subscription->expire_at : 0;
    spec.days = d.a.amount;
    spec.source = "admin";
    spec.traffic_strategy = d.settings.traffic_reset_strategy;
    const Subscription after = grant_subscription(d.txn, d.panel, d.locked, spec);
    d.o.put("days", d.a.amount).time("expire_before", before).time("expire_after", after.expire_at);
}

void extend(const Doing& d) {
    if (!d.locked.subscription) throw ApiError(409, "the customer has no subscription to extend: grant a plan instead");
    GrantSpec spec;
    spec.keep_current_plan = true;
    grant_days(d, spec);
}

void grant(const Doing& d) {
    const auto plan = exec_prepared(d.txn, "admin_plan_by_code", *d.a.text);
    if (plan.empty()) throw ApiError(422, "plan_code: there is no plan " + *d.a.text);
    GrantSpec spec;
    spec.plan_id = plan[0]["id"].as<int64_t>();
    spec.plan_name = plan[0]["name"].c_str();
    spec.plan_code = plan[0]["public_code"].c_str();
    spec.traffic_limit_bytes = plan[0]["traffic_limit_bytes"].as<int64_t>();
    spec.device_limit = plan[0]["device_limit"].as<int64_t>();
    d.o.put("plan_code", spec.plan_code);
    grant_days(d, spec);
}

void set_discount(const Doing& d) {
    exec_prepared(d.txn, "admin_customer_discount", d.locked.user.id, d.a.amount);
    d.o.put("before_pct", d.locked.user.personal_discount_pct).put("after_pct", d.a.amount);
}

void set_promo_group(const Doing& d) {
    if (exec_prepared(d.txn, "admin_customer_promo_group", d.locked.user.id, d.a.text).empty())
        throw ApiError(422, "promo_group: there is no group " + d.a.text.value_or(""));
    d.o.put("promo_group", d.a.text);
}

void reset_devices(const Doing& d) {
    const std::string& uuid = panel_uuid_of(d.locked);
    int64_t removed = 0;
    for (const auto& device : d.panel.devices(uuid)) {
        d.panel.delete_device(uuid, device.hwid);
        ++removed;
    }
    d.o.put("devices_removed", removed);
}

void unbind_device(const Doing& d) {
    const std::string& uuid = panel_uuid_of(d.locked);
    bool seen = false;
    for (const auto& device : d.panel.devices(uuid)) seen = seen || device.hwid == *d.a.text;
    if (!seen) throw ApiError(404, "the panel has no device " + *d.a.text + " for this customer");
    d.panel.delete_device(uuid, *d.a.text);
    d.o.put("hwid", *d.a.text);
}

// As the customer's own reset (api/reset_link.cpp), without its once-per-10-minutes rule:
// the owner resets a link because it leaked.
void reset_link(const Doing& d) {
    const std::string& uuid = panel_uuid_of(d.locked);
    const PanelUser pu = d.panel.revoke_subscription(uuid);
    exec_prepared(d.txn, "set_subscription_link", d.locked.user.id, pu.short_uuid, pu.subscription_url);
    try {
        d.panel.drop_connections(uuid);
    } catch (const PanelError& e) {
        spdlog::warn("link reset of user {} by {}: connections not dropped: {}", d.locked.user.id, d.call.actor, e.why());
    }
}

void set_blocked(const Doing& d, bool blocked) {
    const bool changed = !exec_prepared(d.txn, "admin_customer_block", d.locked.user.id, blocked).empty();
    d.o.put("changed", changed);
}

// The worker's jobs, keyed by the action's key: one job however often the key comes.
void queue_sync(const Doing& d) {
    panel_uuid_of(d.locked);
    const std::string payload =
        json_text([](JsonWriter& w, int64_t id) { JsonObject(w).put("user_id", id); }, d.locked.user.id);
    d.o.put("job_id", jobs::enqueue(d.txn, "sync_user", payload, "admin_action:" + d.call.idempotency_key));
}

void queue_message(const Doing& d) {
    if (!d.locked.user.telegram_id) throw ApiError(409, "the customer has no Telegram account to write to");
    if (trim(*d.a.text).empty()) throw ApiError(422, "text must not be blank");
    const int64_t job = queue_user_message(d.txn, *d.locked.user.telegram_id, *d.a.text,
                                           "admin_action:" + d.call.idempotency_key);
    d.o.put("job_id", job).put("text", *d.a.text);
}

void act(const Doing& d) {
    switch (d.a.kind) {
        case CustomerActionKind::balance: return change_balance(d);
        case CustomerActionKind::extend: return extend(d);
        case CustomerActionKind::grant: return grant(d);
        case CustomerActionKind::discount: return set_discount(d);
        case CustomerActionKind::promo_group: return set_promo_group(d);
        case CustomerActionKind::reset_devices: return reset_devices(d);
        case CustomerActionKind::unbind_device: return unbind_device(d);
        case CustomerActionKind::reset_link: return reset_link(d);
        case CustomerActionKind::block: return set_blocked(d, true);
        case CustomerActionKind::unblock: return set_blocked(d, false);
        case CustomerActionKind::sync: return queue_sync(d);
        case CustomerActionKind::message: return queue_message(d);
    }
}

std::string answer_of(pqxx::work& txn, const CustomerAction& a, int64_t user_id) {
    const auto row = customer_row(txn, user_id);
    rapidjson::StringBuffer buf;
    JsonWriter w(buf);
    write_customer(JsonObject(w).put("action", customer_action_name(a.kind)).key("customer"), *row);
    return buf.GetString();
}

}  // namespace

std::optional<CustomerActionKind> customer_action_named(const std::string& name) {
    for (const auto& [kind, n] : kNames)
        if (name == n) return kind;
    return std::nullopt;
}

const char* customer_action_name(CustomerActionKind k) {
    for (const auto& [kind, n] : kNames)
        if (kind == k) return n;
    return "?";
}

void check_customer_action(const CustomerAction& a) {
    check_text("reason", a.reason, 1, 500);
    switch (a.kind) {
        case CustomerActionKind::balance:
            check_int("delta_minor", a.amount, -kMaxMinor, kMaxMinor);
            if (a.amount == 0) throw ApiError(422, "delta_minor must not be 0");
            return;
        case CustomerActionKind::extend: check_int("days", a.amount, 1, kMaxDays); return;
        case CustomerActionKind::grant:
            check_int("days", a.amount, 1, kMaxDays);
            check_text("plan_code", a.text.value_or(""), 1, 64);
            return;
        case CustomerActionKind::discount: check_int("personal_discount_pct", a.amount, 0, 100); return;
        case CustomerActionKind::promo_group:
            if (a.text) check_text("promo_group", *a.text, 1, 64);
            return;
        case CustomerActionKind::unbind_device: check_text("hwid", a.text.value_or(""), 1, 256); return;
        case CustomerActionKind::message: check_text("text", a.text.value_or(""), 1, 4096); return;
        default: return;
    }
}

ActionAnswer run_customer_action(pqxx::work& txn, PanelClient& panel, const Settings& s, const ActionCall& call,
                                 const CustomerAction& a) {
    const char* name = customer_action_name(a.kind);
    // Before the key: an unknown customer is a 404, not a key spent on nothing (the claim
    // rolls back with it anyway).
    if (!customer_row(txn, call.user_id)) throw not_found("no customer with that id");
    if (auto first = claim_action_key(txn, call.idempotency_key, call.actor, name, call.user_id))
        return {std::move(*first), true};
    const LockedAccount locked = lock_account(txn, call.user_id);
    rapidjson::StringBuffer audit;
    JsonWriter w(audit);
    {
        JsonObject o(w);
        o.put("reason", a.reason);
        act(Doing{txn, panel, s, locked, a, call, o});
    }
    write_audit(txn, call.actor, std::string("customer.") + name, "user:" + std::to_string(call.user_id), audit.GetString());
    ActionAnswer out{answer_of(txn, a, call.user_id), false};
    store_action_answer(txn, call.idempotency_key, out.json);
    return out;
}

ActionAnswer run_customer_action(Db& db, PanelClient& panel, const Settings& s, const ActionCall& call,
                                 const CustomerAction& a) {
    return db.transact([&](pqxx::work& txn) { return run_customer_action(txn, panel, s, call, a); });
}

}  // namespace cabinet
