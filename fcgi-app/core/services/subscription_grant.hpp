#pragma once
// Panel-first subscription writes (DESIGN "Data rules"): compute the new absolute state,
// write it to the panel, then write it locally in the caller's transaction, which already
// holds the user's row lock. A panel failure throws PanelError before anything local is
// written, so the transaction rolls back whole: no time granted, no money taken.
#include <pqxx/pqxx>

#include <optional>
#include <string>

#include "config/settings.hpp"
#include "db/accounts_repo.hpp"
#include "panel/panel_client.hpp"

namespace cabinet {

struct GrantSpec {
    int64_t days = 0;
    bool trial = false;
    // What the subscription becomes; ignored by an extension that keeps the current plan.
    std::optional<int64_t> plan_id;
    std::string plan_name;
    std::string plan_code;
    int64_t traffic_limit_bytes = 0;  // 0 = unlimited
    int64_t device_limit = 1;
    bool keep_current_plan = false;   // "days" promo: more time on the same terms
    // Why, for the subscription history: purchase, trial, promo, referral_bonus, fulfil,
    // autopay, repair; and the transaction it fulfils, when there is one.
    std::string source;
    std::optional<int64_t> transaction_id;
    // What a grant does to the panel's traffic counter. A paid period restores traffic the
    // subscription has run out of (else a renewal would buy nothing usable), or with
    // RESET_TRAFFIC_ON_PAYMENT always starts it over; gifts, trials and repairs keep it.
    enum class Traffic { keep, restore_when_out, reset } traffic = Traffic::keep;
    // The panel's reset strategy to write (DEFAULT_TRAFFIC_RESET_STRATEGY); unset: the
    // panel user keeps its own.
    std::optional<std::string> traffic_strategy;
};

// The traffic rule of a paid period under the owner's settings.
GrantSpec::Traffic paid_period_traffic(const Settings& s);

// Days are added to what is left of a running subscription (as read under the lock), or
// start at the moment the lock was granted. The local write names the subscription revision
// that `locked` read: if the row moved since (a read that was not fresh), nothing is
// written and std::logic_error says so, so days are never silently lost. Each grant adds a
// subscription_history row (what it read, what it wrote).
Subscription grant_subscription(pqxx::work& txn, PanelClient& panel, const LockedAccount& locked, const GrantSpec& spec);

// grant_subscription in two halves, for a writer that folds the local half into a larger
// statement (services/balance_purchase): the panel half computes the next state and writes
// it to the panel; the caller then writes `next`, `snapshot`, `source` and `mark` locally
// (sql 0039 write_subscription) with what subscription_write says, and checks the revision it got
// with written_revision.
struct PlannedGrant {
    Subscription next;     // as the panel now has it; revision still the one read
    std::string snapshot;  // the plan snapshot (JSON) to store
    std::string source;    // subscription history source
    std::string mark;      // the write mark the panel took (panel/panel_mark.hpp), to store with it
};
PlannedGrant plan_grant(PanelClient& panel, const LockedAccount& locked, const GrantSpec& spec);
struct SubscriptionWrite {
    std::optional<int64_t> read_revision;  // what the lock read: NULL when there was none
    std::optional<int64_t> expire_before;  // for the history row
};
SubscriptionWrite subscription_write(const LockedAccount& locked);
// The revision a local write returned; std::logic_error when it was refused (NULL).
int64_t written_revision(const LockedAccount& locked, const pqxx::field& revision);

// A refund takes its `days` back: the expiry moves back by that much, not before the moment
// of the lock (then the subscription is expired), panel first, with a history row
// (source `refund`, days negative). Nothing to do without a subscription.
void take_back_days(pqxx::work& txn, PanelClient& panel, const LockedAccount& locked, int64_t days,
                    int64_t transaction_id);

// Ensures the panel user exists with `state` and returns it (by stored uuid, else by
// Telegram id or, for a web account, by its panel username, else newly created).
PanelUser ensure_panel_user(PanelClient& panel, const Account& account, const PanelUserState& state);

}  // namespace cabinet
